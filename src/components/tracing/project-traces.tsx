"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { TracesView } from "./traces-view";

// A project's page (Tracing → a project) and a deployment's Traces tab: the same view.

export function ProjectTracesPage({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const project = useQuery(trpc.tracing.project.queryOptions({ id: projectId }));
  return (
    <div className="space-y-6">
      <Link
        href="/tracing"
        className="inline-flex items-center gap-1 rounded-sm text-sm text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Tracing projects
      </Link>
      {project.isPending ? (
        <div role="status" aria-label="Loading the project">
          <Skeleton className="h-8 w-64" />
        </div>
      ) : project.isError ? (
        <Alert>Could not load the project: {project.error.message}</Alert>
      ) : (
        <>
          <PageHeader
            title={project.data.name}
            description={
              project.data.deployment_id ? (
                <Link
                  href={`/deployments/${project.data.deployment_id}`}
                  className="rounded-sm underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  Its deployment
                </Link>
              ) : (
                <Badge>Detached: no deployment</Badge>
              )
            }
          />
          <TracesView projectId={project.data.id} projectName={project.data.name} />
        </>
      )}
    </div>
  );
}

export function DeploymentTraces({ deploymentId }: { deploymentId: string }) {
  const trpc = useTRPC();
  const project = useQuery(trpc.tracing.deploymentProject.queryOptions({ deploymentId }));
  if (project.isPending)
    return (
      <div role="status" aria-label="Loading traces">
        <Skeleton className="h-64 w-full" />
      </div>
    );
  if (project.isError)
    return <Alert>Could not load the deployment&apos;s traces: {project.error.message}</Alert>;
  return <TracesView projectId={project.data.id} projectName={project.data.name} />;
}
