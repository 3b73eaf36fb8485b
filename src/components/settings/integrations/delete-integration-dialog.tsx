"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";
import type { CodehostIntegrationDetail } from "@/schemas/codehost-integrations";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

/** Delete an integration; while deployments use it the server refuses and says which. */
export function DeleteIntegrationDialog({
  integration,
  open,
  onClose,
}: {
  integration: CodehostIntegrationDetail;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const remove = useMutation(
    trpc.codehostIntegrations.delete.mutationOptions({
      onSuccess: async () => {
        toast.success(`Deleted ${integration.name}`);
        close();
        await queryClient.invalidateQueries({ queryKey: trpc.codehostIntegrations.pathKey() });
      },
      onError: (e) => setError(apiFailure(e).message),
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      title={`Delete ${integration.name}?`}
      description={
        <div className="space-y-3">
          <p>Deployments can no longer be imported through it, and its webhook stops working.</p>
          {error && <Alert>{error}</Alert>}
        </div>
      }
      confirmLabel="Delete integration"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      variant="danger"
      onConfirm={() => remove.mutate({ integrationId: integration.id })}
      onClose={close}
    />
  );
}
