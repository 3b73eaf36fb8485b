"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { toast } from "sonner";
import type { AppRouter } from "@/server/api/root";
import { useTRPC } from "@/trpc/react";

export interface FieldIssue {
  /** The field as the request names it, e.g. `source_config.resource_spec.cpu`. */
  path: string;
  msg: string;
}

/** A 422's issues with their `body` (and tRPC's `patch`) prefix dropped. */
export function fieldIssues(error: unknown): FieldIssue[] {
  if (!(error instanceof TRPCClientError)) return [];
  const issues = (error as TRPCClientError<AppRouter>).data?.issues ?? [];
  return issues.map(({ loc, msg }) => {
    const rest = loc[0] === "body" ? loc.slice(1) : loc;
    return { path: (rest[0] === "patch" ? rest.slice(1) : rest).join("."), msg };
  });
}

const isStale = (error: unknown) =>
  error instanceof TRPCClientError &&
  (error as TRPCClientError<AppRouter>).data?.code === "PRECONDITION_FAILED";

/**
 * Saves a patch against the ETag the form was opened with: a 412 offers a reload, other errors
 * become a toast (422 issues go back to the caller for the fields), and success says whether a
 * revision was cut.
 */
export function usePatchDeployment(
  id: string,
  options: { onReload: () => void; onFieldIssues?: (issues: FieldIssue[]) => boolean },
) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.deployments.patch.mutationOptions({
      onSuccess: async (result, variables) => {
        const before = queryClient.getQueryData(trpc.deployments.get.queryKey({ id }));
        queryClient.setQueryData(trpc.deployments.get.queryKey({ id }), result);
        await queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
        const latest = result.deployment.latest_revision_id;
        if (latest && latest !== before?.deployment.latest_revision_id) {
          const revision = await queryClient.fetchQuery(
            trpc.revisions.get.queryOptions({ deploymentId: id, revisionId: latest }),
          );
          toast.success(`Saved: revision #${revision.number} was cut`);
        } else if (result.etag === variables.ifMatch) {
          toast.info("Nothing changed");
        } else {
          toast.success("Saved: no new revision");
        }
      },
      onError: (error) => {
        if (isStale(error)) {
          toast.error("This deployment changed since you opened it", {
            description: "Reload to see the current settings, then make your change again.",
            action: { label: "Reload", onClick: options.onReload },
            duration: Infinity,
          });
          return;
        }
        const issues = fieldIssues(error);
        if (issues.length && options.onFieldIssues?.(issues)) {
          toast.error("Some fields need attention");
          return;
        }
        toast.error(`Could not save: ${error.message}`);
      },
    }),
  );
}
