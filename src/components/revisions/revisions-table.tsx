import Link from "next/link";
import { sourceLabels } from "@/components/deployments-list/source-labels";
import { Badge } from "@/components/ui/badge";
import { Mono } from "@/components/ui/description-list";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { Revision } from "@/schemas/revisions";
import { InterruptButton } from "./interrupt-button";
import { RedeployButton } from "./redeploy-button";
import { isActiveRevision, RevisionStatusBadge } from "./revision-status";
import { revisionTarget, ShortSha } from "./revision-source";

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
          <Th>Ref or image</Th>
          <Th>Commit</Th>
          <Th>Created</Th>
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
              <RevisionStatusBadge status={r.status} />
            </Td>
            <Td className="whitespace-nowrap">{sourceLabels[r.source]}</Td>
            <Td className="max-w-72 truncate" title={revisionTarget(r) ?? undefined}>
              {revisionTarget(r) ? (
                <Mono>{revisionTarget(r)}</Mono>
              ) : (
                <span className="text-zinc-400">—</span>
              )}
            </Td>
            <Td>
              <ShortSha sha={r.source_revision_config.repo_commit_sha} />
            </Td>
            <Td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
              <RelativeTime iso={r.created_at} />
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
