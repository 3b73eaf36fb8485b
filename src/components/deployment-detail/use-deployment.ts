"use client";

import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { isActiveRevision, REVISION_POLL_MS } from "@/components/revisions/revision-status";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

/**
 * The deployment with its ETag; polled while its latest revision is in progress or while it is
 * being deleted. Once the worker has removed it, the page becomes the not-found page.
 */
export function useDeployment(id: string) {
  const trpc = useTRPC();
  const latest = useLatestRevision(id);
  const active = latest ? isActiveRevision(latest.status) : false;
  const query = useSuspenseQuery({
    ...trpc.deployments.get.queryOptions({ id }),
    refetchInterval: (q) =>
      active || q.state.data?.deployment.status === "AWAITING_DELETE" ? REVISION_POLL_MS : false,
  });
  if (query.error && apiFailure(query.error).status === 404) notFound();
  return query.data;
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

/** A deployment being deleted takes no more changes (settings, secrets, tags, redeploys). */
export function useCanChange(id: string): boolean | undefined {
  const canEdit = useCanEdit();
  const deleting = useDeployment(id).deployment.status === "AWAITING_DELETE";
  return canEdit && deleting ? false : canEdit;
}
