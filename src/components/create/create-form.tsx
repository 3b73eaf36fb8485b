"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, type FieldPath } from "react-hook-form";
import { ChoiceList } from "@/components/import/choice-list";
import { NameAndTypeFields } from "@/components/deployment-form/name-and-type-fields";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { formResolver } from "@/components/ui/form-resolver";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import type { Archive } from "./archive";
import { ArchivePicker } from "./archive-picker";
import {
  createBody,
  createDefaults,
  createFieldFor,
  createSchema,
  sourceOf,
  type CreateKind,
  type CreateValues,
} from "./create-model";
import { ResourceInputs } from "@/components/deployment-form/resource-inputs";
import { useUploadSource } from "./use-upload-source";

/** One form for the image, template and upload sources: name, source, resources, create. */
export function CreateForm({ kind, mode }: { kind: CreateKind; mode: "managed" | "self_hosted" }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const source = sourceOf(kind, mode);
  const form = useForm<CreateValues>({
    resolver: formResolver(createSchema),
    mode: "onTouched",
    defaultValues: createDefaults(kind),
  });
  const { errors, isSubmitting } = form.formState;
  const templates = useQuery({
    ...trpc.deployments.templates.queryOptions(),
    enabled: kind === "template",
  });
  const [archive, setArchive] = useState<Archive | null>(null);
  const [archiveError, setArchiveError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const create = useMutation(trpc.deployments.create.mutationOptions());
  const upload = useUploadAfterCreate();

  const submit = form.handleSubmit(async (values) => {
    if (kind === "upload" && !archive) {
      setArchiveError("Choose a .tar.gz archive or a folder to upload.");
      return;
    }
    setFailure(undefined);
    let id: string;
    try {
      const created = await create.mutateAsync(createBody(values, source));
      id = created.id;
    } catch (error) {
      const failed = apiFailure(error);
      const fields = Object.entries(issuesByPath(failed.issues))
        .map(([path, msg]) => [createFieldFor(path), msg] as const)
        .filter(([field]) => field);
      if (failed.status === 409) form.setError("name", { message: failed.message });
      fields.forEach(([field, message]) =>
        form.setError(field as FieldPath<CreateValues>, { message }, { shouldFocus: true }),
      );
      if (failed.status !== 409 && fields.length === 0) setFailure(failed.message);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
    if (kind !== "upload") {
      toast.success(`Created ${values.name}: its first revision is queued`);
      return router.push(`/deployments/${id}`);
    }
    await upload(id, values, archive!);
  });

  const busy = isSubmitting || create.isPending;

  return (
    <form noValidate onSubmit={submit} aria-label="New deployment" className="space-y-6">
      {failure && <Alert>{failure}</Alert>}
      <Card>
        <CardHeader title="Deployment" />
        <CardBody className="grid gap-5 sm:grid-cols-2">
          <NameAndTypeFields form={form} />
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Source" description={sourceDescriptions[kind]} />
        <CardBody className="space-y-5">
          {kind === "image" && (
            <FormField
              id="image-uri"
              label="Image"
              hint="A registry reference with a tag or digest, e.g. ghcr.io/acme/agent:1.0."
              error={errors.image_uri?.message}
            >
              {(aria) => (
                <Input
                  {...aria}
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono"
                  placeholder="registry.example.com/agent:1.0"
                  {...form.register("image_uri")}
                />
              )}
            </FormField>
          )}
          {kind === "template" && (
            <div className="space-y-1.5">
              <ChoiceList
                legend="Template"
                name="template"
                value={form.watch("template_id") || null}
                onChange={(id) =>
                  form.setValue("template_id", id, { shouldValidate: true, shouldDirty: true })
                }
                options={(templates.data ?? []).map((t) => ({
                  value: t.id,
                  label: t.name,
                  detail: t.description,
                }))}
              />
              {errors.template_id?.message && (
                <p className="text-xs text-red-700 dark:text-red-400">
                  {errors.template_id.message}
                </p>
              )}
            </div>
          )}
          {kind === "upload" && (
            <>
              <ArchivePicker
                archive={archive}
                error={archiveError}
                onChange={(chosen, error) => {
                  setArchive(chosen);
                  setArchiveError(error);
                }}
              />
              <FormField
                id="graph-config-path"
                label="Graph config path"
                hint="Path of the graph configuration file inside the archive."
                error={errors.graph_config_path?.message}
              >
                {(aria) => (
                  <Input {...aria} className="font-mono" {...form.register("graph_config_path")} />
                )}
              </FormField>
            </>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Resources"
          description="For the agent server. Limits default to twice the request; change them and the other components in Settings later."
        />
        <CardBody>
          <ResourceInputs form={form} />
        </CardBody>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy
            ? kind === "upload"
              ? "Creating and uploading…"
              : "Creating…"
            : "Create deployment"}
        </Button>
      </div>
    </form>
  );
}

const sourceDescriptions: Record<CreateKind, string> = {
  image: "A container image Hangar runs as it is: nothing is built.",
  template: "A ready-made agent to start from.",
  upload:
    "Your project's source: Hangar builds it (as `langgraph deploy --remote` does) and runs the result.",
};

/** After an upload create: send the archive, which cuts revision 1, then open the deployment. */
function useUploadAfterCreate() {
  const router = useRouter();
  const upload = useUploadSource();
  return async (id: string, values: CreateValues, archive: Archive) => {
    try {
      await upload.mutateAsync({
        id,
        archive: archive.blob,
        graphConfigPath: values.graph_config_path,
      });
      toast.success(`Created ${values.name}: its first revision is queued`);
      router.push(`/deployments/${id}`);
    } catch (error) {
      toast.error(`Created ${values.name}, but its source was not uploaded`, {
        description: `${apiFailure(error).message} Upload it again from the deployment's Settings.`,
        duration: Infinity,
      });
      router.push(`/deployments/${id}/settings`);
    }
  };
}
