import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { Readable } from "node:stream";
import { MAX_UPLOAD_BYTES, UploadTooLarge, type UploadStore } from "./types";

// Uploads in S3-compatible object storage: the client PUTs straight to a presigned URL (15
// minutes, that key, Content-Type application/gzip). Keep the bucket private with default
// encryption on. A presigned PUT cannot cap the size, so reads refuse objects over the limit.

export interface S3StoreConfig {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const notFound = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

async function readLimited(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new UploadTooLarge(max);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function s3UploadStore(config: S3StoreConfig): UploadStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
  });
  const Bucket = config.bucket;
  return {
    kind: "s3",
    async uploadUrl(objectPath, expiresAt) {
      const expiresIn = Math.max(1, expiresAt - Math.floor(Date.now() / 1000));
      return getSignedUrl(
        client,
        new PutObjectCommand({ Bucket, Key: objectPath, ContentType: "application/gzip" }),
        { expiresIn },
      );
    },
    async put(objectPath, body, maxBytes) {
      const bytes = await readLimited(body, maxBytes);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectPath,
          Body: bytes,
          ContentType: objectPath.startsWith("tracing/")
            ? "application/octet-stream"
            : "application/gzip",
        }),
      );
      return bytes.length;
    },
    async exists(objectPath) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectPath }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },
    async open(objectPath) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: objectPath }));
      if ((object.ContentLength ?? 0) > MAX_UPLOAD_BYTES) {
        (object.Body as Readable | undefined)?.destroy();
        throw new UploadTooLarge(MAX_UPLOAD_BYTES);
      }
      return object.Body as Readable;
    },
    async remove(objectPath) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectPath }));
    },
    async sweep(before) {
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: "deployments/", ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified < before) {
            await client.send(new DeleteObjectCommand({ Bucket, Key: object.Key }));
            removed++;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return removed;
    },
    async sweepTracing(day) {
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: "tracing/", ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const objectDay = object.Key?.split("/")[1] ?? "";
          if (object.Key && /^\d{8}$/.test(objectDay) && objectDay < day) {
            await client.send(new DeleteObjectCommand({ Bucket, Key: object.Key }));
            removed++;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return removed;
    },
  };
}
