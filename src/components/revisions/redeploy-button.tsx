"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Play, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import type { ButtonSize } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";

/** Cuts a new revision from `revision`'s configuration, then opens it. */
function useRedeploy(revision: Revision, success: (from: number, to: number) => string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const deploymentId = revision.deployment_id;
  return useMutation(
    trpc.revisions.redeploy.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.deployments.get.queryKey({ id: deploymentId }), result);
        await queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
        const latestId = result.deployment.latest_revision_id!;
        const latest = await queryClient.fetchQuery(
          trpc.revisions.get.queryOptions({ deploymentId, revisionId: latestId }),
        );
        toast.success(success(revision.number, latest.number));
        router.push(`/deployments/${deploymentId}/revisions/${latestId}`);
      },
      onError: (error) => toast.error(`Could not redeploy: ${error.message}`),
    }),
  );
}

/** Rolls back to (or retries) a revision's configuration as a new revision, after a confirmation. */
export function RedeployButton({
  revision,
  size = "sm",
}: {
  revision: Revision;
  size?: ButtonSize;
}) {
  const redeploy = useRedeploy(
    revision,
    (from, to) => `Redeploying revision #${from} as revision #${to}`,
  );
  return (
    <ConfirmButton
      label={`Redeploy revision #${revision.number}`}
      size={size}
      title={`Redeploy revision #${revision.number}?`}
      description="Its configuration (source, ref or image, commit, secrets, resources and build commands) comes back as a new revision. Settings such as the custom URL stay as they are."
      confirmLabel="Redeploy"
      pendingLabel="Redeploying…"
      pending={redeploy.isPending}
      onConfirm={(close) =>
        redeploy.mutate(
          { deploymentId: revision.deployment_id, revisionId: revision.id },
          { onSuccess: close },
        )
      }
    >
      <RotateCcw aria-hidden className="size-4" />
      Redeploy
    </ConfirmButton>
  );
}

/** Deploys the deployment's current configuration again, as a new revision (the latest's). */
export function DeployNowButton({ latest }: { latest: Revision }) {
  const redeploy = useRedeploy(latest, (_, to) => `Deploying revision #${to}`);
  return (
    <ConfirmButton
      label="Deploy now"
      size="sm"
      title="Deploy now?"
      description={`A new revision is cut from revision #${latest.number}'s configuration and deployed. The running revision keeps serving until it is live.`}
      confirmLabel="Deploy"
      pendingLabel="Deploying…"
      pending={redeploy.isPending}
      onConfirm={(close) =>
        redeploy.mutate(
          { deploymentId: latest.deployment_id, revisionId: latest.id },
          { onSuccess: close },
        )
      }
    >
      <Play aria-hidden className="size-4" />
      Deploy now
    </ConfirmButton>
  );
}
