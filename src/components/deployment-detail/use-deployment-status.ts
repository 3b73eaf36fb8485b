"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeploymentChanges } from "@/components/deployments-list/use-deployment-changes";
import { useRuntimeHealth } from "@/components/deployments-list/use-runtime-health";
import { deploymentDisplayStatus } from "@/schemas/deployment-status";
import { useTRPC } from "@/trpc/react";
import { useDeployment, useLatestRevision } from "./use-deployment";

/** The deployment with its latest and active revisions and what its badge says. */
export function useDeploymentStatus(id: string) {
  const trpc = useTRPC();
  const { deployment } = useDeployment(id);
  const latest = useLatestRevision(id) ?? null;
  const activeId = deployment.active_revision_id;
  const active =
    useQuery({
      ...trpc.revisions.get.queryOptions({ deploymentId: id, revisionId: activeId ?? "" }),
      enabled: !!activeId && activeId !== latest?.id,
    }).data ?? (latest?.id === activeId ? latest : null);
  const health = useRuntimeHealth(id, !!activeId && deployment.runtime !== "dry_run");
  return {
    deployment,
    latest,
    active,
    health,
    status: deploymentDisplayStatus(deployment, latest, active, health),
  };
}

/** Reads the deployment and its revisions again whenever the server says it changed. */
export function useLiveDeployment(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useDeploymentChanges(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.deployments.get.queryKey({ id }) });
    void queryClient.invalidateQueries({ queryKey: trpc.revisions.list.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.revisions.get.pathKey() });
    void queryClient.invalidateQueries({
      queryKey: trpc.runtime.state.queryKey({ deploymentId: id }),
    });
  }, id);
}
