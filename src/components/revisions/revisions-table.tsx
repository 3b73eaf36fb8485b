import Link from "next/link";
import { sourceLabels } from "@/components/deployments-list/source-labels";
import { Badge } from "@/components/ui/badge";
import { Mono } from "@/components/ui/description-list";
import { IdChip } from "@/components/ui/id-chip";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { Revision } from "@/schemas/revisions";
import { InterruptButton } from "./interrupt-button";
import { RedeployButton } from "./redeploy-button";
import { isActiveRevision, RevisionStatusBadge } from "./revision-status";
import { PromotedFrom, revisionTarget, ShortSha } from "./revision-source";

export function RevisionsTable({
  rows,
  latestId,
  activeId,
  canEdit,
}: {
  rows: Revision[];
  latestId: string | null;
  activeId: string | null;
  canEdit: boolean;
}) {
  return (
    <Table aria-label="Revisions">
      <thead>
        <tr>
          <Th>Revision</Th>
          <Th>Status</Th>
          <Th>Source</Th>
          <Th>Created</Th>
          <Th>ID</Th>
          {canEdit && (
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <Tr key={r.id}>
            <Td>
              <span className="flex items-center gap-2">
                <Link
                  href={`/deployments/${r.deployment_id}/revisions/${r.id}`}
                  className="rounded-sm font-medium text-zinc-900 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-100"
                >
                  #{r.number}
                </Link>
                {r.id === activeId && <Badge tone="green">Active</Badge>}
                {r.id === latestId && <Badge>Latest</Badge>}
              </span>
            </Td>
            <Td>
              <RevisionStatusBadge status={r.status} runtime={r.runtime} />
            </Td>
            {/* What it runs in one cell (kind, ref or image, commit): room for the whole id. */}
            <Td className="max-w-64">
              <span className="block whitespace-nowrap">
                {sourceLabels[r.source]}
                {r.source_revision_config.repo_commit_sha && (
                  <>
                    {" · "}
                    <ShortSha sha={r.source_revision_config.repo_commit_sha} />
                  </>
                )}
              </span>
              {revisionTarget(r) && (
                <span className="block truncate" title={revisionTarget(r) ?? undefined}>
                  <Mono>{revisionTarget(r)}</Mono>
                </span>
              )}
              {r.promoted_from && (
                <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
                  <PromotedFrom from={r.promoted_from} />
                </span>
              )}
            </Td>
            <Td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
              <RelativeTime iso={r.created_at} />
            </Td>
            <Td className="whitespace-nowrap">
              <IdChip
                id={r.id}
                label={`revision #${r.number}`}
                href={`/deployments/${r.deployment_id}/revisions/${r.id}`}
              />
            </Td>
            {canEdit && (
              <Td>
                <span className="flex justify-end gap-2">
                  {isActiveRevision(r.status) && <InterruptButton revision={r} />}
                  {!isActiveRevision(r.status) && <RedeployButton revision={r} />}
                </span>
              </Td>
            )}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
