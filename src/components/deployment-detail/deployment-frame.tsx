"use client";

import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/deployments-list/status-badge";
import { RevisionStatusBadge } from "@/components/revisions/revision-status";
import { PageHeader } from "@/components/shell/page-header";
import { IdChip } from "@/components/ui/id-chip";
import { DeleteDeployment } from "./delete-deployment";
import { DeletingNotice } from "./deleting-notice";
import { DeploymentTabs } from "./deployment-tabs";
import { useCanEdit } from "./use-deployment";
import { useDeploymentStatus, useLiveDeployment } from "./use-deployment-status";
import { ViewerNotice } from "./viewer-notice";

/** The header and tabs every deployment page shares. */
export function DeploymentFrame({ id, children }: { id: string; children: ReactNode }) {
  const { deployment: d, latest, active, health } = useDeploymentStatus(id);
  const canEdit = useCanEdit();
  useLiveDeployment(id);

  return (
    <div className="space-y-6">
      <Link
        href="/deployments"
        className="inline-flex items-center gap-1 rounded-sm text-sm text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Deployments
      </Link>
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            {d.name}
            <StatusBadge deployment={d} latest={latest} active={active} health={health} />
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <IdChip id={d.id} label="deployment" href={`/deployments/${d.id}`} />
            {latest && (
              <Link
                href={`/deployments/${d.id}/revisions/${latest.id}`}
                className="inline-flex items-center gap-2 rounded-sm hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-zinc-100"
              >
                Latest revision #{latest.number}
                <RevisionStatusBadge status={latest.status} runtime={latest.runtime} />
              </Link>
            )}
          </span>
        }
        actions={
          d.status === "AWAITING_DELETE" ? (
            <DeletingNotice />
          ) : canEdit ? (
            <DeleteDeployment id={d.id} name={d.name} />
          ) : (
            canEdit === false && <ViewerNotice />
          )
        }
      />
      <DeploymentTabs id={d.id} />
      <div>{children}</div>
    </div>
  );
}
