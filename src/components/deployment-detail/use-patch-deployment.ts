"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiFailure, issuePath } from "@/trpc/errors";
import type { VersionedDeployment } from "@/server/services/deployments/read";
import { useTRPC } from "@/trpc/react";

/** What every editor of a deployment (settings, secrets, tags) is given by its tab. */
export interface DeploymentEditorProps {
  baseline: VersionedDeployment;
  canEdit: boolean;
  onSaved: (saved: VersionedDeployment) => void;
  onReload: () => void;
}

export interface FieldIssue {
  /** The field as the request names it, e.g. `source_config.resource_spec.cpu`. */
  path: string;
  msg: string;
}

/** A 422's issues at their form paths (the procedure's `patch` input key dropped). */
const fieldIssues = (error: unknown): FieldIssue[] =>
  apiFailure(error).issues.map((issue) => ({ path: issuePath(issue, "patch"), msg: issue.msg }));

const isStale = (error: unknown) => apiFailure(error).status === 412;

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
        toast.error(`Could not save: ${apiFailure(error).message}`);
      },
    }),
  );
}
