"use client";

import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { ArrowLeft, Lock } from "lucide-react";
import Link from "next/link";
import { PageHeader } from "@/components/shell/page-header";
import { StatusBadge } from "@/components/deployments/status-badge";
import { useTRPC } from "@/trpc/react";
import { DeleteDeployment } from "./delete-deployment";
import { OverviewCard } from "./overview-card";
import { ResourcesCard } from "./resources-card";
import { SecretsCard } from "./secrets-card";
import { SourceCard } from "./source-card";
import { TagsCard } from "./tags-card";

export function DeploymentDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const { deployment: d } = useSuspenseQuery(trpc.deployments.get.queryOptions({ id })).data;
  const role = useQuery(trpc.session.me.queryOptions()).data?.role;
  const canEdit = role === "editor" || role === "admin";

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
            <StatusBadge status={d.status} />
          </span>
        }
        description={<span className="font-mono text-xs">{d.id}</span>}
        actions={canEdit ? <DeleteDeployment id={d.id} name={d.name} /> : role && <ViewerNotice />}
      />
      <OverviewCard deployment={d} />
      <div className="grid gap-6 lg:grid-cols-2">
        <SourceCard deployment={d} />
        <ResourcesCard deployment={d} />
        <SecretsCard deployment={d} />
        <TagsCard tagValueIds={d.tag_value_ids} />
      </div>
    </div>
  );
}

function ViewerNotice() {
  return (
    <p className="flex items-center gap-2 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
      <Lock aria-hidden className="size-4" />
      Read-only: viewers cannot change or delete deployments.
    </p>
  );
}
