import type { Provider } from "next-auth/providers";
import { env } from "@/env";
import { getDb } from "@/server/db";

export const OIDC_PROVIDER_ID = "oidc";

/** The OpenID Connect provider, only when its three variables are configured. */
export function oidcProvider(): Provider | null {
  if (!env.AUTH_OIDC_ISSUER || !env.AUTH_OIDC_CLIENT_ID || !env.AUTH_OIDC_CLIENT_SECRET)
    return null;
  return {
    id: OIDC_PROVIDER_ID,
    name: "SSO",
    type: "oidc",
    issuer: env.AUTH_OIDC_ISSUER,
    clientId: env.AUTH_OIDC_CLIENT_ID,
    clientSecret: env.AUTH_OIDC_CLIENT_SECRET,
  };
}

export const oidcEnabled = (): boolean => oidcProvider() !== null;

/**
 * SSO signs in people who already have a Hangar account (matched by verified email): an
 * identity provider alone does not grant access to a workspace.
 */
export async function hangarUserIdForOidc(profile: {
  email?: string | null;
  email_verified?: boolean | null;
}): Promise<string | null> {
  if (!profile.email || profile.email_verified === false) return null;
  const user = await getDb().user.findUnique({ where: { email: profile.email.toLowerCase() } });
  return user?.id ?? null;
}
