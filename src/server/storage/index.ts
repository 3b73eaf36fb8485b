import path from "node:path";
import { env } from "@/env";
import { localUploadStore } from "./local";
import { s3UploadStore } from "./s3";
import type { UploadStore } from "./types";

export * from "./types";

let store: UploadStore | undefined;

/** The configured upload store: an S3-compatible bucket, else a folder under HANGAR_DATA_DIR. */
export function uploadStore(): UploadStore {
  store ??= env.HANGAR_S3_BUCKET
    ? s3UploadStore({
        bucket: env.HANGAR_S3_BUCKET,
        endpoint: env.HANGAR_S3_ENDPOINT,
        region: env.HANGAR_S3_REGION,
        forcePathStyle: env.HANGAR_S3_FORCE_PATH_STYLE,
        credentials:
          env.HANGAR_S3_ACCESS_KEY_ID && env.HANGAR_S3_SECRET_ACCESS_KEY
            ? {
                accessKeyId: env.HANGAR_S3_ACCESS_KEY_ID,
                secretAccessKey: env.HANGAR_S3_SECRET_ACCESS_KEY,
              }
            : undefined,
      })
    : localUploadStore(path.resolve(env.HANGAR_DATA_DIR, "uploads"));
  return store;
}
