"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField, formErrors } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import {
  createCodehostIntegrationBody,
  type CodehostIntegrationDetail,
} from "@/schemas/codehost-integrations";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

const editSchema = z.object({
  name: createCodehostIntegrationBody.shape.name,
  api_base_url: createCodehostIntegrationBody.shape.api_base_url,
});
type EditValues = z.infer<typeof editSchema>;

/** Rename an integration or move it to another URL (its credentials are tried there first). */
export function EditIntegrationDialog({
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
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EditValues>({
    resolver: zodResolver(editSchema, formErrors),
    values: { name: integration.name, api_base_url: integration.api_base_url },
  });
  const update = useMutation(
    trpc.codehostIntegrations.update.mutationOptions({
      onSuccess: async (_, input) => {
        toast.success(`Saved ${input.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.codehostIntegrations.pathKey() });
        onClose();
      },
      onError: (error) => {
        const failed = apiFailure(error);
        const fields = issuesByPath(failed.issues);
        for (const [path, msg] of Object.entries(fields)) {
          if (path in editSchema.shape) form.setError(path as keyof EditValues, { message: msg });
        }
        if (failed.status === 409) form.setError("name", { message: failed.message });
        setFailure(Object.keys(fields).length || failed.status === 409 ? null : failed.message);
      },
    }),
  );
  const { errors } = form.formState;
  const id = integration.id;

  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${integration.name}`}>
      <form
        noValidate
        aria-label={`Edit ${integration.name}`}
        className="space-y-4"
        onSubmit={form.handleSubmit((v) => {
          setFailure(null);
          update.mutate({ integration_id: id, ...v });
        })}
      >
        {failure && <Alert>{failure}</Alert>}
        <FormField id={`edit-name-${id}`} label="Name" error={errors.name?.message}>
          {(aria) => (
            <Input {...aria} data-autofocus autoComplete="off" {...form.register("name")} />
          )}
        </FormField>
        <FormField
          id={`edit-url-${id}`}
          label="API base URL"
          hint="A new URL is tried with the stored credentials before it is saved."
          error={errors.api_base_url?.message}
        >
          {(aria) => <Input {...aria} type="url" {...form.register("api_base_url")} />}
        </FormField>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
