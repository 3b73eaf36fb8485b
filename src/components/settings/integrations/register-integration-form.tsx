"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Alert } from "@/components/ui/alert";
import { FormField, formErrors } from "@/components/ui/form-field";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import {
  createCodehostIntegrationBody,
  type CodehostIntegration,
} from "@/schemas/codehost-integrations";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import { useState } from "react";

// Token integrations only: app credentials (PEM keys) are for the REST API and the CLI.
const registerSchema = z.object({
  name: createCodehostIntegrationBody.shape.name,
  api_base_url: createCodehostIntegrationBody.shape.api_base_url,
  token: z.string().min(1, "Enter an access token").max(4096),
});
type RegisterValues = z.infer<typeof registerSchema>;

export function RegisterIntegrationForm({
  onCreated,
  onCancel,
}: {
  onCreated: (integration: CodehostIntegration) => void;
  onCancel?: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema, formErrors),
    mode: "onTouched",
    defaultValues: { name: "", api_base_url: "", token: "" },
  });
  const create = useMutation(
    trpc.codehostIntegrations.create.mutationOptions({
      onSuccess: async (integration) => {
        toast.success(`Registered ${integration.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.codehostIntegrations.pathKey() });
        form.reset();
        onCreated(integration);
      },
      onError: (error) => {
        const failed = apiFailure(error);
        const fields = issuesByPath(failed.issues);
        for (const [path, msg] of Object.entries(fields)) {
          if (path in registerSchema.shape)
            form.setError(path as keyof RegisterValues, { message: msg });
        }
        if (failed.status === 409) form.setError("name", { message: failed.message });
        setFailure(Object.keys(fields).length || failed.status === 409 ? null : failed.message);
      },
    }),
  );
  const { errors } = form.formState;

  return (
    <form
      noValidate
      aria-label="Register a code-host integration"
      onSubmit={form.handleSubmit((v) => {
        setFailure(null);
        create.mutate(v);
      })}
      className="space-y-4"
    >
      {failure && <Alert>{failure}</Alert>}
      <FormField id="integration-name" label="Name" error={errors.name?.message}>
        {(aria) => <Input {...aria} autoComplete="off" {...form.register("name")} />}
      </FormField>
      <FormField
        id="integration-api-base-url"
        label="API base URL"
        hint="The code host's REST v3 root, e.g. https://api.codehost.example"
        error={errors.api_base_url?.message}
      >
        {(aria) => (
          <Input {...aria} type="url" placeholder="https://" {...form.register("api_base_url")} />
        )}
      </FormField>
      <FormField
        id="integration-token"
        label="Access token"
        hint="Stored encrypted and never shown again."
        error={errors.token?.message}
      >
        {(aria) => (
          <Input {...aria} type="password" autoComplete="off" {...form.register("token")} />
        )}
      </FormField>
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Checking and registering…" : "Register integration"}
        </Button>
      </div>
    </form>
  );
}
