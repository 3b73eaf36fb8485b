import type { VersionedDeployment } from "@/server/services/deployments/read";

/** A deployment response with its ETag header. */
export function withEtag(value: VersionedDeployment, status = 200) {
  return { $status: status, $headers: { ETag: value.etag }, body: value.deployment };
}
