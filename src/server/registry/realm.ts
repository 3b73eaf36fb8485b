import type { RegistryConfig } from "./config";
import { registryFetch } from "./manifest";

// Where the registry sends clients for a token (its `WWW-Authenticate: Bearer realm=...`):
// Hangar's own token endpoint, at whatever address the registry was configured with. A build's
// pull and push must reach it, so the build sandbox lets exactly this endpoint through.

const CACHE_MS = 60_000;
let cached: { apiUrl: string; at: number; realm: URL | null } | undefined;

/** The realm's URL, or null when the registry asks for none (or cannot be reached now). */
export async function registryRealm(config: RegistryConfig): Promise<URL | null> {
  if (cached?.apiUrl === config.apiUrl && Date.now() - cached.at < CACHE_MS) return cached.realm;
  const response = await registryFetch(config)(`${config.apiUrl}/v2/`, { timeoutMs: 5000 }).catch(
    () => null,
  );
  await response?.body?.cancel();
  const challenge = response?.headers.get("www-authenticate") ?? "";
  const realm = /realm="([^"]+)"/i.exec(challenge)?.[1];
  const url = realm && URL.canParse(realm) ? new URL(realm) : null;
  cached = { apiUrl: config.apiUrl, at: Date.now(), realm: url };
  return url;
}
