import type { RegistryToken } from "@/schemas/registry";
import type { DbClient } from "@/server/db";
import { AppError, badRequest } from "@/server/errors";
import { registryConfig, repositoryOf } from "@/server/registry/config";
import { registrySigningKey } from "@/server/registry/signing-key";
import {
  signRegistryToken,
  type RegistryAccess,
  type RegistryAction,
} from "@/server/registry/tokens";
import { pushTokenDeployment } from "./push-tokens";

// GET /registry/token: the registry's token server (Docker token authentication). Basic
// credentials `oauth2accesstoken:<push token>`; the JWT grants, of the scopes asked, push and
// pull on the push token's deployment repository, and for a build's own token also pull on the
// workspace's other repositories (base images); nothing else.

export const PUSH_TOKEN_USER = "oauth2accesstoken";
const OWN: RegistryAction[] = ["push", "pull"];
const WORKSPACE: RegistryAction[] = ["pull"];

function basicCredentials(authorization: string | null): { user: string; password: string } {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
  const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  if (colon < 0)
    throw new AppError(
      "unauthorized",
      `Log in with user ${PUSH_TOKEN_USER} and a push token as the password.`,
    );
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** `repository:<name>:<actions>` scopes; others (e.g. `registry:catalog:*`) are granted nothing. */
function parseScopes(scopes: string[]): { name: string; actions: string[] }[] {
  return scopes.flatMap((scope) =>
    scope.split(" ").flatMap((one) => {
      const match = /^repository(?:\([a-z0-9]+\))?:([^:]+):([a-z*,]+)$/.exec(one);
      return match ? [{ name: match[1]!, actions: match[2]!.split(",") }] : [];
    }),
  );
}

export async function issueRegistryToken(
  db: DbClient,
  request: { authorization: string | null; service: string | undefined; scopes: string[] },
): Promise<RegistryToken> {
  const config = registryConfig();
  if (!config) throw new AppError("unavailable", "No container registry is configured.");
  if (request.service !== undefined && request.service !== config.service)
    throw badRequest(
      `Unknown service ${request.service}: this server signs for ${config.service}.`,
    );
  const { user, password } = basicCredentials(request.authorization);
  const deployment = user === PUSH_TOKEN_USER ? await pushTokenDeployment(db, password) : null;
  if (!deployment)
    throw new AppError(
      "unauthorized",
      "The push token is not valid (unknown, expired or revoked).",
    );

  const own = repositoryOf(deployment);
  const grantable = (name: string): RegistryAction[] =>
    name === own
      ? OWN
      : deployment.build && name.startsWith(`${deployment.workspaceId}/`)
        ? WORKSPACE
        : [];
  const access: RegistryAccess[] = parseScopes(request.scopes)
    .map((scope) => ({
      type: "repository" as const,
      name: scope.name,
      actions: grantable(scope.name).filter(
        (a) => scope.actions.includes(a) || scope.actions.includes("*"),
      ),
    }))
    .filter((grant) => grant.actions.length > 0);
  const signed = await signRegistryToken(config, `push-token:${deployment.tokenId}`, access);
  return {
    token: signed.token,
    access_token: signed.token,
    expires_in: signed.expiresIn,
    issued_at: signed.issuedAt.toISOString(),
  };
}

/** The certificate registry tokens are signed with (PEM): the registry's rootcertbundle. */
export const registryCertificate = async (): Promise<string> =>
  (await registrySigningKey()).certificatePem;
