// Container image references in Docker's grammar (distribution/reference), with Docker's
// normalization: a name whose first component is no registry host lives on docker.io.

const COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const REFERENCE = new RegExp(
  `^(?<name>${COMPONENT}(?:/${COMPONENT})*|[a-zA-Z0-9.-]+(?::\\d{1,5})?(?:/${COMPONENT})+)` +
    `(?::(?<tag>\\w[\\w.-]{0,127}))?(?:@(?<digest>sha256:[a-f0-9]{64}))?$`,
);

export interface ImageReference {
  /** `registry/path`, the registry always named (docker.io by default). */
  name: string;
  tag: string | null;
  digest: string | null;
}

/** The first component is a registry host when it has a dot or a port, or is localhost. */
const isHost = (component: string) =>
  component.includes(".") || component.includes(":") || component === "localhost";

/** Parses and qualifies a reference; null when it is not one. */
export function parseImageReference(reference: string): ImageReference | null {
  const match = REFERENCE.exec(reference.trim());
  if (!match?.groups || reference.length > 512) return null;
  const { name, tag, digest } = match.groups as Record<string, string | undefined>;
  const [first, ...rest] = name!.split("/");
  let qualified: string;
  if (rest.length > 0 && isHost(first!)) qualified = name!;
  else if (/[A-Z]/.test(name!)) return null;
  else qualified = rest.length > 0 ? `docker.io/${name}` : `docker.io/library/${name}`;
  return { name: qualified, tag: tag ?? null, digest: digest ?? null };
}

/** A reference as written: a name with its tag and/or digest. */
export const formatImageReference = (ref: ImageReference) =>
  `${ref.name}${ref.tag ? `:${ref.tag}` : ""}${ref.digest ? `@${ref.digest}` : ""}`;
