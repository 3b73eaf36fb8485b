import { env } from "@/env";
import { parseAllowlist } from "@/server/outbound/allowlist";
import { createOutboundFetch, type OutboundFetch } from "@/server/outbound/client";
import { findOutboundError } from "@/server/outbound/errors";
import type { RegistryConfig, RegistryImage } from "./config";
import { signRegistryToken } from "./tokens";

// Reads a pushed image's manifest digest from Hangar's registry, through the outbound client:
// the configured registry is allowed by configuration (besides HANGAR_EGRESS_ALLOWLIST).

const MANIFEST_TYPES = [
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.v2+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
].join(", ");

/** Why a digest could not be read, in words for the revision's status message. */
export class RegistryLookupError extends Error {}

let client: { apiUrl: string; fetch: OutboundFetch } | undefined;

export function registryFetch(config: RegistryConfig): OutboundFetch {
  if (client?.apiUrl !== config.apiUrl) {
    const allowlist = [env.HANGAR_EGRESS_ALLOWLIST, new URL(config.apiUrl).host]
      .filter(Boolean)
      .join(",");
    client = {
      apiUrl: config.apiUrl,
      fetch: createOutboundFetch({ allowlist: parseAllowlist(allowlist) }),
    };
  }
  return client.fetch;
}

/** The manifest digest (`sha256:...`) the registry serves for the image's tag or digest. */
export async function manifestDigest(
  config: RegistryConfig,
  image: RegistryImage,
): Promise<string> {
  const { token } = await signRegistryToken(config, "hangar", [
    { type: "repository", name: image.repository, actions: ["pull"] },
  ]);
  const url = `${config.apiUrl}/v2/${image.repository}/manifests/${encodeURIComponent(image.reference)}`;
  const response = await registryFetch(config)(url, {
    method: "HEAD",
    headers: { Accept: MANIFEST_TYPES, Authorization: `Bearer ${token}` },
  }).catch((error: unknown) => {
    const outbound = findOutboundError(error);
    if (!outbound) throw error;
    throw new RegistryLookupError(`Hangar's registry could not be read: ${outbound.message}.`);
  });
  if (response.status === 404)
    throw new RegistryLookupError(
      `${config.host}/${image.repository}:${image.reference} is not in Hangar's registry: push it first.`,
    );
  const digest = response.headers.get("docker-content-digest");
  if (!response.ok || !digest || !/^sha256:[0-9a-f]{64}$/.test(digest))
    throw new RegistryLookupError(
      `Hangar's registry answered ${response.status} for ${image.repository}:${image.reference}.`,
    );
  return digest;
}
