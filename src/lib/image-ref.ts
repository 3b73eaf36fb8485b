// Images as people compare them: `repository@sha256:<12 hex>`, the repository kept (a bare digest
// says nothing about what runs) and the digest short (the full one is in the title).

/** `sha256:0123456789ab`: the first 12 hex digits, enough to tell two images apart. */
export const shortDigest = (digest: string) => {
  const [algorithm, hex] = digest.split(":");
  return hex ? `${algorithm}:${hex.slice(0, 12)}` : digest;
};

/** The repository of an image reference: `host[:port]/path`, without its tag or digest. */
export function repositoryOf(ref: string): string {
  const name = ref.split("@")[0]!;
  const slash = name.lastIndexOf("/");
  const colon = name.lastIndexOf(":");
  return colon > slash ? name.slice(0, colon) : name;
}

/**
 * How an image reads in a comparison: `repository@sha256:<short>` when its digest is known,
 * else the reference as named (a tag).
 */
export function shortImage(ref: string | null, digest: string | null): string | null {
  const pinned = digest ?? (ref?.includes("@") ? ref.slice(ref.indexOf("@") + 1) : null);
  if (ref && pinned) return `${repositoryOf(ref)}@${shortDigest(pinned)}`;
  return ref ?? (pinned ? shortDigest(pinned) : null);
}
