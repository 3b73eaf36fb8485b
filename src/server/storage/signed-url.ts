import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "@/server/crypto";

// Hangar's own upload URLs authorise themselves: an HMAC over the method, the object and the
// expiry, with a key derived from HANGAR_ENCRYPTION_KEY. Nothing else is signed with it.

const signingKey = () => derivedKey("uploads.sign");

export function signUpload(objectPath: string, expiresAt: number): string {
  return createHmac("sha256", signingKey())
    .update(`PUT\n${objectPath}\n${expiresAt}`)
    .digest("hex");
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
