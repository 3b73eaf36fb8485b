"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { CreatedListener, Listener } from "@/schemas/listeners";
import { useTRPC } from "@/trpc/react";

const splitNamespaces = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Creates a listener (`listener` null) or edits one's namespaces and version. */
export function ListenerFormDialog({
  open,
  listener,
  onClose,
  onCreated,
}: {
  open: boolean;
  listener: Listener | null;
  onClose: () => void;
  onCreated: (created: CreatedListener) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [computeId, setComputeId] = useState("");
  const [namespaces, setNamespaces] = useState(
    listener?.compute_config.k8s_namespaces.join(", ") ?? "",
  );
  const [version, setVersion] = useState(listener?.version ?? "");
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.listeners.list.queryKey() });
  };
  const create = useMutation(
    trpc.listeners.create.mutationOptions({
      onSuccess: async (created) => {
        await done();
        onCreated(created);
      },
    }),
  );
  const patch = useMutation(trpc.listeners.patch.mutationOptions({ onSuccess: done }));
  const mutation = listener ? patch : create;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const compute_config = { k8s_namespaces: splitNamespaces(namespaces) };
    if (listener)
      patch.mutate(
        { listenerId: listener.id, compute_config, version: version || null },
        { onSuccess: onClose },
      );
    else
      create.mutate({
        compute_type: "k8s",
        compute_id: computeId,
        compute_config,
        version: version || null,
      });
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={listener ? `Edit ${listener.compute_id}` : "Create listener"}
      description="A listener runs in your cluster and applies the deployments assigned to it."
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        {mutation.isError && <Alert>{mutation.error.message}</Alert>}
        {!listener && (
          <FormField
            id="listener-compute-id"
            label="Cluster id"
            hint="A name for the cluster, unique in this workspace."
          >
            {(aria) => (
              <Input
                {...aria}
                data-autofocus
                autoComplete="off"
                value={computeId}
                onChange={(e) => setComputeId(e.target.value)}
              />
            )}
          </FormField>
        )}
        <FormField
          id="listener-namespaces"
          label="Namespaces"
          hint="Kubernetes namespaces it deploys into, separated by commas."
        >
          {(aria) => (
            <Input
              {...aria}
              autoComplete="off"
              value={namespaces}
              onChange={(e) => setNamespaces(e.target.value)}
            />
          )}
        </FormField>
        <FormField
          id="listener-version"
          label="Version"
          hint="Optional: the listener version you run."
        >
          {(aria) => (
            <Input
              {...aria}
              autoComplete="off"
              value={version}
              onChange={(e) => setVersion(e.target.value)}
            />
          )}
        </FormField>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : listener ? "Save" : "Create listener"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
