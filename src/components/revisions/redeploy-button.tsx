"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import type { ButtonSize } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";

/** Rolls back to a revision's configuration as a new revision, after a confirmation. */
export function RedeployButton({
  revision,
  size = "sm",
}: {
  revision: Revision;
  size?: ButtonSize;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const deploymentId = revision.deployment_id;
  const redeploy = useMutation(
    trpc.revisions.redeploy.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.deployments.get.queryKey({ id: deploymentId }), result);
        await queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
        const latestId = result.deployment.latest_revision_id!;
        const latest = await queryClient.fetchQuery(
          trpc.revisions.get.queryOptions({ deploymentId, revisionId: latestId }),
        );
        toast.success(`Redeploying revision #${revision.number} as revision #${latest.number}`);
        router.push(`/deployments/${deploymentId}/revisions/${latestId}`);
      },
      onError: (error) => toast.error(`Could not redeploy: ${error.message}`),
    }),
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
        redeploy.mutate({ deploymentId, revisionId: revision.id }, { onSuccess: close })
      }
    >
      <RotateCcw aria-hidden className="size-4" />
      Redeploy
    </ConfirmButton>
  );
}
