"use client";

import Link from "next/link";
import { DeployNowButton } from "@/components/revisions/redeploy-button";
import { isActiveRevision, RevisionStatusBadge } from "@/components/revisions/revision-status";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList, Mono } from "@/components/ui/description-list";
import { RelativeTime } from "@/components/ui/relative-time";
import { sourceLabels } from "@/components/deployments-list/source-labels";
import { StatusBadge } from "@/components/deployments-list/status-badge";
import { typeLabels } from "@/components/deployments-list/type-labels";
import type { Revision } from "@/schemas/revisions";
import { isHttpUrl } from "@/schemas/web-url";
import { useCanChange } from "./use-deployment";
import { RuntimeLine } from "./runtime-line";
import { useDeploymentStatus } from "./use-deployment-status";

function RevisionLink({ revision }: { revision: Revision }) {
  return (
    <Link
      href={`/deployments/${revision.deployment_id}/revisions/${revision.id}`}
      className="inline-flex items-center gap-2 rounded-sm font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
    >
      Revision #{revision.number}
      <RevisionStatusBadge status={revision.status} runtime={revision.runtime} />
    </Link>
  );
}

export function OverviewCard({ id }: { id: string }) {
  const { deployment: d, latest, active, health, status } = useDeploymentStatus(id);
  const canChange = useCanChange(id);
  const url = d.source_config.custom_url;
  return (
    <Card>
      <CardHeader
        title="Overview"
        actions={
          canChange &&
          latest &&
          !isActiveRevision(latest.status) && <DeployNowButton latest={latest} />
        }
      />
      <CardBody>
        <DescriptionList
          items={[
            {
              label: "Status",
              value: (
                <div className="space-y-1">
                  <StatusBadge deployment={d} latest={latest} active={active} health={health} />
                  {status.reason && (
                    <p
                      className="text-sm text-red-800 dark:text-red-300"
                      data-testid="status-reason"
                    >
                      {status.reason}
                    </p>
                  )}
                  {status.note && (
                    <p className="text-sm text-zinc-600 dark:text-zinc-400">
                      {status.note.charAt(0).toUpperCase() + status.note.slice(1)}
                    </p>
                  )}
                </div>
              ),
            },
            ...(d.active_revision_id ? [{ label: "Running", value: <RuntimeLine id={id} /> }] : []),
            { label: "Source", value: sourceLabels[d.source] },
            { label: "Type", value: typeLabels[d.source_config.deployment_type] },
            {
              label: "Active revision",
              value: active ? <RevisionLink revision={active} /> : null,
            },
            {
              label: "Latest revision",
              value: latest ? <RevisionLink revision={latest} /> : null,
            },
            {
              label: "Custom URL",
              // A row stored before the URL rule may hold another scheme: shown, never a link.
              value: !url ? null : !isHttpUrl(url) ? (
                <Mono>{url}</Mono>
              ) : (
                <a
                  href={url}
                  className="text-blue-700 hover:underline dark:text-blue-400"
                  rel="noreferrer"
                  target="_blank"
                >
                  {url}
                </a>
              ),
            },
            ...(d.tracked_packages.length
              ? [{ label: "Tracked packages", value: <Mono>{d.tracked_packages.join(", ")}</Mono> }]
              : []),
            {
              label: "Image version",
              value: d.image_version ? <Mono>{d.image_version}</Mono> : null,
            },
            { label: "Created", value: <RelativeTime iso={d.created_at} /> },
            { label: "Updated", value: <RelativeTime iso={d.updated_at} /> },
          ]}
        />
      </CardBody>
    </Card>
  );
}
