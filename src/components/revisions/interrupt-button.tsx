"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleStop } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { ButtonSize } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";

/** Stops a revision that has not finished, after a confirmation. */
export function InterruptButton({
  revision,
  size = "sm",
}: {
  revision: Revision;
  size?: ButtonSize;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deploymentId = revision.deployment_id;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() }),
      queryClient.invalidateQueries({
        queryKey: trpc.deployments.get.queryKey({ id: deploymentId }),
      }),
    ]);
  const interrupt = useMutation(
    trpc.revisions.interrupt.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(
          trpc.revisions.get.queryKey({ deploymentId, revisionId: result.id }),
          result,
        );
        toast.success(`Interrupted revision #${revision.number}`);
        await refresh();
      },
      // Most often it finished first (409): the refresh shows how it ended.
      onError: async (error) => {
        toast.error(`Could not interrupt revision #${revision.number}: ${error.message}`);
        await refresh();
      },
    }),
  );
  return (
    <ConfirmButton
      label={`Interrupt revision #${revision.number}`}
      size={size}
      title={`Interrupt revision #${revision.number}?`}
      description="It stops at its next step and ends as Interrupted. The active revision keeps running; redeploy this one later to try again."
      confirmLabel="Interrupt"
      pendingLabel="Interrupting…"
      variant="danger"
      pending={interrupt.isPending}
      onConfirm={(close) =>
        interrupt.mutate({ deploymentId, revisionId: revision.id }, { onSettled: close })
      }
    >
      <CircleStop aria-hidden className="size-4" />
      Interrupt
    </ConfirmButton>
  );
}
