import type { CodehostCredentials } from "@/server/integrations/codehost/client";
import { createCodehostClient } from "@/server/integrations/codehost/octokit";
import { invalidField } from "@/server/errors";

/**
 * Tries credentials against the code host before they are saved: a refused token is a 422 on
 * the credential, a host that is refused by the address policy, unreachable or failing a 422 on
 * `api_base_url`, each saying what happened (never the credential itself).
 */
export async function verifyCredentials(
  apiBaseUrl: string,
  credentials: CodehostCredentials,
  loc: { credential: (string | number)[]; url: (string | number)[] },
): Promise<void> {
  const check = await createCodehostClient(apiBaseUrl, credentials).checkAccess();
  if (check.ok) return;
  if (check.cause === "credentials") {
    const what = credentials.kind === "token" ? "token" : "app credentials";
    throw invalidField(
      loc.credential,
      `The code host refused this ${what}: check it is valid and can read repositories.`,
      "credentials_refused",
    );
  }
  throw invalidField(loc.url, check.message, "codehost_unreachable");
}
