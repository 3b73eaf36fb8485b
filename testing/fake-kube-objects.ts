import { status } from "./fake-kube-http";

// What the fake Kubernetes API (fake-kube-api.ts) does to stored objects beyond storing them.

type StoredObject = Record<string, unknown>;
type Metadata = { uid?: string; ownerReferences?: { uid: string }[] };

/** A JSON merge patch (RFC 7386): objects merge, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const merged: Record<string, unknown> =
    target && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

/** The garbage collector: objects `uid` owns go, and what they own in turn. */
export function collectOwnedBy(objects: Map<string, StoredObject>, uid: string): void {
  for (const [path, object] of [...objects]) {
    const metadata = object.metadata as Metadata;
    if (!(metadata.ownerReferences ?? []).some((owner) => owner.uid === uid)) continue;
    objects.delete(path);
    if (metadata.uid) collectOwnedBy(objects, metadata.uid);
  }
}

/**
 * Why a replace (PUT) of `stored` with `body` is refused, as the API server says it: another
 * kind or name (400), or a resourceVersion other than the stored one (409, changed since read).
 */
export function replaceRefusal(
  stored: StoredObject,
  body: StoredObject | undefined,
  resource: { name: string; kind: string },
  name: string,
) {
  const metadata = (body?.metadata ?? {}) as { name?: string; resourceVersion?: string };
  if (body?.kind !== resource.kind || metadata.name !== name)
    return status(
      400,
      `the name of the object (${metadata.name}) does not match the name on the URL (${name})`,
      "BadRequest",
    );
  const current = (stored.metadata as { resourceVersion?: string }).resourceVersion;
  if (metadata.resourceVersion !== undefined && metadata.resourceVersion !== current)
    return status(
      409,
      `Operation cannot be fulfilled on ${resource.name} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      "Conflict",
    );
  return null;
}
