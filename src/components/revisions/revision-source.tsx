import { Mono } from "@/components/ui/description-list";
import type { Revision } from "@/schemas/revisions";

/** What a revision runs: its ref (code) or image or tarball, whichever its source uses. */
export function revisionTarget(r: Revision): string | null {
  const c = r.source_revision_config;
  return c.repo_ref ?? c.image_uri ?? c.source_tarball_path;
}

export function ShortSha({ sha }: { sha: string | null }) {
  return sha ? (
    <span title={sha}>
      <Mono>{sha.slice(0, 7)}</Mono>
    </span>
  ) : (
    <span className="text-zinc-400">—</span>
  );
}
