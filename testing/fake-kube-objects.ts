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
