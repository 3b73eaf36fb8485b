"use client";

import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { isActiveRevision, REVISION_POLL_MS } from "@/components/revisions/revision-status";
import { useTRPC } from "@/trpc/react";

/** The deployment with its ETag; polled while its latest revision is in progress. */
export function useDeployment(id: string) {
  const trpc = useTRPC();
  const latest = useLatestRevision(id);
  const active = latest ? isActiveRevision(latest.status) : false;
  return useSuspenseQuery({
    ...trpc.deployments.get.queryOptions({ id }),
    refetchInterval: active ? REVISION_POLL_MS : false,
  }).data;
}

/** The deployment's latest revision, polled until it reaches a final status. */
export function useLatestRevision(id: string) {
  const trpc = useTRPC();
  const revisionId = useQuery(trpc.deployments.get.queryOptions({ id })).data?.deployment
    .latest_revision_id;
  return useQuery({
    ...trpc.revisions.get.queryOptions({ deploymentId: id, revisionId: revisionId ?? "" }),
    enabled: !!revisionId,
    refetchInterval: (query) =>
      query.state.data && isActiveRevision(query.state.data.status) ? REVISION_POLL_MS : false,
  }).data;
}

/** Editors and admins may change deployments; viewers only read. Unknown until `me` loads. */
export function useCanEdit(): boolean | undefined {
  const trpc = useTRPC();
  const role = useQuery(trpc.session.me.queryOptions()).data?.role;
  return role === undefined ? undefined : role === "editor" || role === "admin";
}
