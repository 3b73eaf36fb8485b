import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { derivedKey } from "@/server/crypto";
import { signUpload } from "./signed-url";
import {
  BUILD_CONTEXT_PATH,
  TRACING_OBJECT_PATH,
  UploadTooLarge,
  UPLOAD_PATH,
  type UploadStore,
} from "./types";

// Uploads in a folder under HANGAR_DATA_DIR (mode 0700), each file AES-256-GCM encrypted
// (iv | ciphertext | tag, mode 0600), PUT through Hangar's own signed route.

const IV = 12;
const TAG = 16;

const cipherKey = () => derivedKey("uploads.encrypt");

/** Counts bytes as they pass and fails the stream past `max`. */
function limit(max: number) {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) return done(new UploadTooLarge(max));
      done(null, chunk);
    },
  });
  return { counter, size: () => size };
}

export function localUploadStore(root: string): UploadStore {
  const fileOf = (objectPath: string) => {
    if (
      !UPLOAD_PATH.test(objectPath) &&
      !BUILD_CONTEXT_PATH.test(objectPath) &&
      !TRACING_OBJECT_PATH.test(objectPath)
    )
      throw new Error(`Not an upload path: ${objectPath}`);
    const file = path.resolve(root, objectPath);
    if (!file.startsWith(path.resolve(root) + path.sep))
      throw new Error(`Not an upload path: ${objectPath}`);
    return file;
  };
  return {
    kind: "local",
    async uploadUrl(objectPath, expiresAt, origin) {
      const [, deploymentId, uploadId] = UPLOAD_PATH.exec(objectPath)!;
      const query = new URLSearchParams({
        expires: String(expiresAt),
        signature: signUpload(objectPath, expiresAt),
      });
      return `${origin}/v2/uploads/${deploymentId}/${uploadId}?${query}`;
    },
    async put(objectPath, body, maxBytes) {
      const file = fileOf(objectPath);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const partial = `${file}.${randomBytes(6).toString("hex")}.part`;
      const iv = randomBytes(IV);
      const cipher = createCipheriv("aes-256-gcm", cipherKey(), iv);
      const { counter, size } = limit(maxBytes);
      const out = createWriteStream(partial, { mode: 0o600 });
      out.write(iv);
      try {
        await pipeline(body, counter, cipher, out, { end: false });
        await new Promise<void>((resolve, reject) =>
          out.end(cipher.getAuthTag(), (error?: Error | null) =>
            error ? reject(error) : resolve(),
          ),
        );
        await rename(partial, file);
      } catch (error) {
        out.destroy();
        await rm(partial, { force: true });
        throw error;
      }
      return size();
    },
    async exists(objectPath) {
      return stat(fileOf(objectPath)).then(
        () => true,
        () => false,
      );
    },
    async open(objectPath) {
      const file = fileOf(objectPath);
      const { size } = await stat(file);
      if (size < IV + TAG) throw new Error(`Upload ${objectPath} is truncated`);
      const handle = await open(file, "r");
      const head = Buffer.alloc(IV);
      const tag = Buffer.alloc(TAG);
      try {
        await handle.read(head, 0, IV, 0);
        await handle.read(tag, 0, TAG, size - TAG);
      } finally {
        await handle.close();
      }
      const decipher = createDecipheriv("aes-256-gcm", cipherKey(), head);
      decipher.setAuthTag(tag);
      if (size === IV + TAG) return Readable.from(decipher.final());
      const source = createReadStream(file, { start: IV, end: size - TAG - 1 });
      source.on("error", (error) => decipher.destroy(error));
      return source.pipe(decipher);
    },
    async remove(objectPath) {
      await rm(fileOf(objectPath), { force: true });
    },
    async sweep(before) {
      let removed = 0;
      const deployments = await readdir(path.join(root, "deployments")).catch(() => []);
      for (const deployment of deployments) {
        const folder = path.join(root, "deployments", deployment, "uploads");
        for (const name of await readdir(folder).catch(() => [])) {
          const file = path.join(folder, name);
          const info = await stat(file).catch(() => null);
          if (info && info.mtime < before) {
            await rm(file, { force: true });
            removed++;
          }
        }
      }
      return removed;
    },
    async sweepTracing(day) {
      let removed = 0;
      const folder = path.join(root, "tracing");
      for (const name of await readdir(folder).catch(() => [])) {
        if (!/^\d{8}$/.test(name) || name >= day) continue;
        const files = await readdir(path.join(folder, name), { recursive: true }).catch(() => []);
        await rm(path.join(folder, name), { recursive: true, force: true });
        removed += files.filter((f) => /[0-9a-f]{64}$/.test(String(f))).length;
      }
      return removed;
    },
  };
}
