import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "@/server/crypto";

// Hangar's own URLs that authorise themselves (uploads here; build contexts, tracing
// attachments): an HMAC over the method, what the URL names and its expiry, one line each, with
// a key derived from HANGAR_ENCRYPTION_KEY for that kind of URL alone.

/** The hex HMAC-SHA256 of `fields`, one per line, with the key derived for `purpose`. */
export function signFields(purpose: string, fields: (string | number)[]): string {
  return createHmac("sha256", derivedKey(purpose)).update(fields.join("\n")).digest("hex");
}

export function signUpload(objectPath: string, expiresAt: number): string {
  return signFields("uploads.sign", ["PUT", objectPath, expiresAt]);
}

export type UploadSignatureCheck = "ok" | "expired" | "invalid";

export function checkUploadSignature(
  objectPath: string,
  expires: string | null,
  signature: string | null,
  now = Date.now(),
): UploadSignatureCheck {
  return checkSignedExpiry((at) => signUpload(objectPath, at), expires, signature, now);
}

/** Checks a URL's `expires` and hex `signature` against `sign(expires)`, in constant time. */
export function checkSignedExpiry(
  sign: (expiresAt: number) => string,
  expires: string | null,
  signature: string | null,
  now = Date.now(),
): UploadSignatureCheck {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature))
    return "invalid";
  const expected = Buffer.from(sign(Number(expires)), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return "invalid";
  return Number(expires) * 1000 < now ? "expired" : "ok";
}
