import { checkSignedExpiry, signFields, type UploadSignatureCheck } from "./signed-url";

// A Kubernetes build's context URL authorises itself like an upload URL (signed-url.ts), with a
// key of its own: an HMAC over the method, the context and the expiry.

export function signBuildContext(contextId: string, expiresAt: number): string {
  return signFields("build-contexts.sign", ["GET", contextId, expiresAt]);
}

/** `{origin}/v2/build-contexts/{id}?expires=&signature=`: one GET until `expiresAt` (unix s). */
export function buildContextUrl(origin: string, contextId: string, expiresAt: number): string {
  const query = new URLSearchParams({
    expires: String(expiresAt),
    signature: signBuildContext(contextId, expiresAt),
  });
  return `${origin.replace(/\/+$/, "")}/v2/build-contexts/${contextId}?${query}`;
}

export function checkBuildContextSignature(
  contextId: string,
  expires: string | null,
  signature: string | null,
  now = Date.now(),
): UploadSignatureCheck {
  return checkSignedExpiry((at) => signBuildContext(contextId, at), expires, signature, now);
}
