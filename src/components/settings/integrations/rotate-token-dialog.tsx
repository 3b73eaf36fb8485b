"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import type { CodehostIntegrationDetail } from "@/schemas/codehost-integrations";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

/** Replace the access token; the code host must accept the new one before it is stored. */
export function RotateTokenDialog({
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
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const done = () => {
    setToken("");
    setError(null);
    onClose();
  };
  const rotate = useMutation(
    trpc.codehostIntegrations.rotateToken.mutationOptions({
      onSuccess: async () => {
        toast.success(`Rotated the token of ${integration.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.codehostIntegrations.pathKey() });
        done();
      },
      onError: (e) => {
        const failed = apiFailure(e);
        setError(issuesByPath(failed.issues).token ?? failed.message);
      },
    }),
  );
  const id = `rotate-token-${integration.id}`;

  return (
    <Dialog
      open={open}
      onClose={done}
      title={`Rotate the token of ${integration.name}`}
      description="Deployments keep working: the new token is used from the next request on."
    >
      <form
        noValidate
        aria-label={`Rotate the token of ${integration.name}`}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!token) return setError("Enter the new access token");
          setError(null);
          rotate.mutate({ integration_id: integration.id, token });
        }}
      >
        <FormField
          id={id}
          label="New access token"
          hint="Stored encrypted and never shown again."
          error={error ?? undefined}
        >
          {(aria) => (
            <Input
              {...aria}
              data-autofocus
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          )}
        </FormField>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={done}>
            Cancel
          </Button>
          <Button type="submit" disabled={rotate.isPending}>
            {rotate.isPending ? "Checking…" : "Rotate token"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
