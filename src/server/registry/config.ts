import { env } from "@/env";

// Hangar's container registry as configured (README "Container registry"): where clients push,
// the service name tokens are signed for, and where Hangar reads manifests.

export interface RegistryConfig {
  /** `host[:port]` clients push to (HANGAR_REGISTRY_URL). */
  host: string;
  /** The registry's `auth.token.service`: the tokens' audience. */
  service: string;
  /** Base URL of the registry's HTTP API as Hangar reaches it. */
  apiUrl: string;
  /** Reached over plain HTTP (HANGAR_REGISTRY_API_URL `http://...`): builders skip TLS for it. */
  insecure: boolean;
}

export const REGISTRY_ISSUER = "hangar";

/** The configured registry, or null when HANGAR_REGISTRY_URL is unset. */
export function registryConfig(): RegistryConfig | null {
  if (!env.HANGAR_REGISTRY_URL) return null;
  const host = env.HANGAR_REGISTRY_URL.toLowerCase();
  const apiUrl = (env.HANGAR_REGISTRY_API_URL ?? `https://${host}`).replace(/\/+$/, "");
  return {
    host,
    service: env.HANGAR_REGISTRY_SERVICE,
    apiUrl,
    insecure: apiUrl.toLowerCase().startsWith("http://"),
  };
}

/** A deployment's repository: `<workspace id>/<deployment name>`. */
export const repositoryOf = (deployment: { workspaceId: string; name: string }) =>
  `${deployment.workspaceId}/${deployment.name}`;

/** What push-token answers as registry_url: the registry plus the workspace's namespace. */
export const namespaceUrlOf = (config: RegistryConfig, workspaceId: string) =>
  `${config.host}/${workspaceId}`;

export interface RegistryImage {
  repository: string;
  /** A tag or a digest (`sha256:...`). */
  reference: string;
}

/** The repository and tag (or digest) of an image_uri in Hangar's registry; null for others. */
export function registryImageOf(config: RegistryConfig, imageUri: string): RegistryImage | null {
  const prefix = `${config.host}/`;
  if (!imageUri.toLowerCase().startsWith(prefix)) return null;
  const rest = imageUri.slice(prefix.length);
  const at = rest.indexOf("@");
  if (at >= 0) return { repository: rest.slice(0, at), reference: rest.slice(at + 1) };
  const colon = rest.lastIndexOf(":");
  return colon > rest.lastIndexOf("/")
    ? { repository: rest.slice(0, colon), reference: rest.slice(colon + 1) }
    : { repository: rest, reference: "latest" };
}
