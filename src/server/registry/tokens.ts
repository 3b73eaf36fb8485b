import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { REGISTRY_ISSUER, type RegistryConfig } from "./config";
import { registrySigningKey } from "./signing-key";

// Registry bearer tokens (the Distribution registry's token authentication): ES256 JWTs whose
// header carries the signing certificate (x5c), which the registry checks against its
// rootcertbundle.

export type RegistryAction = "push" | "pull";

export interface RegistryAccess {
  type: "repository";
  name: string;
  actions: RegistryAction[];
}

/** How long a registry token lives: a push's requests, not the push token's hour. */
export const REGISTRY_TOKEN_TTL_SECONDS = 300;

export interface SignedRegistryToken {
  token: string;
  expiresIn: number;
  issuedAt: Date;
}

export async function signRegistryToken(
  config: RegistryConfig,
  subject: string,
  access: RegistryAccess[],
): Promise<SignedRegistryToken> {
  const key = await registrySigningKey();
  const issuedAt = new Date();
  const now = Math.floor(issuedAt.getTime() / 1000);
  const token = await new SignJWT({ access })
    .setProtectedHeader({ alg: "ES256", typ: "JWT", x5c: [key.certificateDer] })
    .setIssuer(REGISTRY_ISSUER)
    .setAudience(config.service)
    .setSubject(subject)
    .setIssuedAt(now)
    .setNotBefore(now - 5)
    .setExpirationTime(now + REGISTRY_TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: REGISTRY_TOKEN_TTL_SECONDS, issuedAt };
}
