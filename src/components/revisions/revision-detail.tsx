"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { useCanChange, useDeployment } from "@/components/deployment-detail/use-deployment";
import { sourceLabels } from "@/components/deployments-list/source-labels";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList, ImageRef, Mono } from "@/components/ui/description-list";
import { IdChip } from "@/components/ui/id-chip";
import { RelativeTime } from "@/components/ui/relative-time";
import { useTRPC } from "@/trpc/react";
import { InterruptButton } from "./interrupt-button";
import { PromoteButton } from "./promote-button";
import { RedeployButton } from "./redeploy-button";
import { RevisionLogs } from "./revision-logs";
import { PromotedFrom } from "./revision-source";
import { isActiveRevision, REVISION_POLL_MS, RevisionStatusBadge } from "./revision-status";

const mono = (v: string | null) => (v ? <Mono>{v}</Mono> : null);

/** One revision's configuration; polled until it reaches a final status. */
export function RevisionDetail({ id, revisionId }: { id: string; revisionId: string }) {
  const trpc = useTRPC();
  const { deployment } = useDeployment(id);
  const canEdit = useCanChange(id) ?? false;
  const r = useSuspenseQuery({
    ...trpc.revisions.get.queryOptions({ deploymentId: id, revisionId }),
    refetchInterval: (query) =>
      query.state.data && isActiveRevision(query.state.data.status) ? REVISION_POLL_MS : false,
  }).data;
  const c = r.source_revision_config;
  const isLatest = deployment.latest_revision_id === r.id;

  return (
    <div className="space-y-6">
      <Link
        href={`/deployments/${id}/revisions`}
        className="inline-flex items-center gap-1 rounded-sm text-sm text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        <ArrowLeft aria-hidden className="size-4" />
        All revisions
      </Link>
      <Card>
        <CardHeader
          title={`Revision #${r.number}`}
          description={
            <span className="flex flex-wrap items-center gap-2">
              <RevisionStatusBadge status={r.status} runtime={r.runtime} />
              {deployment.active_revision_id === r.id && <Badge tone="green">Active</Badge>}
              {isLatest && <Badge>Latest</Badge>}
            </span>
          }
          actions={
            canEdit && (
              <span className="flex flex-wrap gap-2">
                {isActiveRevision(r.status) && <InterruptButton revision={r} size="md" />}
                {!isActiveRevision(r.status) && <RedeployButton revision={r} size="md" />}
                {r.image_digest && <PromoteButton revision={r} sourceName={deployment.name} />}
              </span>
            )
          }
        />
        <CardBody className="space-y-4">
          {r.status_message && (
            <p
              className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-950"
              aria-label="Status message"
            >
              {r.status_message}
            </p>
          )}
          <DescriptionList
            items={[
              { label: "Source", value: sourceLabels[r.source] },
              ...(r.promoted_from
                ? [{ label: "Origin", value: <PromotedFrom from={r.promoted_from} /> }]
                : []),
              { label: "Branch or ref", value: mono(c.repo_ref) },
              {
                label: "Commit",
                value: c.repo_commit_sha && <IdChip id={c.repo_commit_sha} label="commit" />,
              },
              { label: "Graph config path", value: mono(c.graph_config_path) },
              { label: "Image", value: c.image_uri && <ImageRef value={c.image_uri} /> },
              {
                label: "Image digest",
                value: r.image_digest && <ImageRef value={r.image_digest} />,
              },
              { label: "Source tarball", value: mono(c.source_tarball_path) },
              { label: "Created", value: <RelativeTime iso={r.created_at} /> },
              { label: "Updated", value: <RelativeTime iso={r.updated_at} /> },
              {
                label: "Revision ID",
                value: (
                  <IdChip
                    id={r.id}
                    label={`revision #${r.number}`}
                    href={`/deployments/${id}/revisions/${r.id}`}
                  />
                ),
              },
            ]}
          />
        </CardBody>
      </Card>
      <RevisionLogs key={r.id} revision={r} />
    </div>
  );
}
