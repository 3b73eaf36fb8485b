import Link from "next/link";
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

/** "Promoted from <deployment> revision #N", linking to that revision (while it exists). */
export function PromotedFrom({ from }: { from: NonNullable<Revision["promoted_from"]> }) {
  return (
    <span data-testid="promoted-from">
      Promoted from{" "}
      <Link
        href={`/deployments/${from.deployment_id}/revisions/${from.revision_id}`}
        className="rounded-sm font-medium text-zinc-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-100"
      >
        {from.deployment_name} revision #{from.revision_number}
      </Link>
    </span>
  );
}
