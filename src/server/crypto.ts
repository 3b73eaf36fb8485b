import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { env } from "@/env";

// AES-256-GCM for secrets at rest. Stored form: "v1.<iv>.<tag>.<ciphertext>", base64url parts.
const VERSION = "v1";

function parseKey(raw: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32)
    throw new Error("HANGAR_ENCRYPTION_KEY must be 32 bytes (64 hex characters or base64).");
  return key;
}

let cachedKey: Buffer | undefined;
function encryptionKey(): Buffer {
  if (!cachedKey) {
    if (!env.HANGAR_ENCRYPTION_KEY) {
      throw new Error(
        "HANGAR_ENCRYPTION_KEY is not set: start Hangar with `npm start` or set it (see README).",
      );
    }
    cachedKey = parseKey(env.HANGAR_ENCRYPTION_KEY);
  }
  return cachedKey;
}

export function encrypt(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function decrypt(stored: string): string {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined)
    throw new Error("Unrecognised ciphertext format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([
    decipher.update(Buffer.from(data, "base64url")),
    decipher.final(),
  ]).toString("utf8");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A key for one purpose (e.g. "uploads.sign"), derived from the encryption key. */
export function derivedKey(purpose: string): Buffer {
  return createHmac("sha256", encryptionKey()).update(`hangar:${purpose}`).digest();
}
