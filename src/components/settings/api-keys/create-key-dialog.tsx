"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Alert } from "@/components/ui/alert";
import { FormField, formErrors } from "@/components/ui/form-field";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { createApiKeyInput, type CreateApiKeyInput, type CreatedApiKey } from "@/schemas/api-keys";
import { useTRPC } from "@/trpc/react";
import { roleLabels, roles } from "../role-notice";

export const keyKindLabels = { personal: "Personal", service: "Service" } as const;

export function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof createApiKeyInput>, unknown, CreateApiKeyInput>({
    resolver: zodResolver(createApiKeyInput, formErrors),
    defaultValues: { name: "", kind: "personal", role: "viewer", org_role: "member" },
  });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (key) => {
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        form.reset();
        onCreated(key);
      },
      onError: (error) => toast.error(`Could not create the key: ${error.message}`),
    }),
  );
  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Create API key"
      description="A key acts in this workspace with the role you give it."
    >
      <form noValidate onSubmit={form.handleSubmit((v) => create.mutate(v))} className="space-y-4">
        {create.isError && <Alert>{create.error.message}</Alert>}
        <FormField
          id="key-name"
          label="Name"
          hint="What uses this key, e.g. CI deploys."
          error={form.formState.errors.name?.message}
        >
          {(aria) => (
            <Input {...aria} data-autofocus autoComplete="off" {...form.register("name")} />
          )}
        </FormField>
        <FormField
          id="key-kind"
          label="Kind"
          hint="Personal: yours, never above your own role, revoked if you leave. Service: the workspace's, for CI and tools; it outlives people."
        >
          {(aria) => (
            <Select {...aria} className="w-full" {...form.register("kind")}>
              {(["personal", "service"] as const).map((k) => (
                <option key={k} value={k}>
                  {keyKindLabels[k]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField
          id="key-role"
          label="Role"
          hint="Viewers may only read; editors change deployments; admins also manage access."
        >
          {(aria) => (
            <Select {...aria} className="w-full" {...form.register("role")}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {roleLabels[r]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
