"use client";

import { useQuery } from "@tanstack/react-query";
import { FormProvider, useForm, useWatch, type FieldPath } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formResolver } from "@/components/ui/form-resolver";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useTRPC } from "@/trpc/react";
import { ChangeNotice } from "../change-notice";
import { UnsavedChangesGuard } from "../unsaved-changes";
import { useLatestRevision } from "../use-deployment";
import {
  usePatchDeployment,
  type FieldIssue,
  type DeploymentEditorProps,
} from "../use-patch-deployment";
import { TextField, SwitchField } from "./fields";
import { FixedFields } from "./fixed-fields";
import { PreviewsFields } from "./previews-fields";
import { ResourceFields } from "./resource-fields";
import { SourceUpload } from "./source-upload";
import {
  configAllowed,
  pendingChanges,
  revisionAllowed,
  settingsSchemaFor,
  toFormValues,
  toPatch,
  type SettingsValues,
} from "./settings-values";

export function SettingsForm({ baseline, canEdit, onSaved, onReload }: DeploymentEditorProps) {
  const d = baseline.deployment;
  const hydrated = useHydrated();
  const form = useForm<SettingsValues>({
    resolver: formResolver(settingsSchemaFor(d)),
    defaultValues: toFormValues(d),
  });
  const values = useWatch({ control: form.control }) as SettingsValues;
  const { cuts, settings } = pendingChanges(d, values);
  const latest = useLatestRevision(d.id);
  const setIssues = (issues: FieldIssue[]) => {
    const known = issues.filter((i) => /^source(_revision)?_config\./.test(i.path));
    known.forEach((i) =>
      form.setError(i.path as FieldPath<SettingsValues>, { message: i.msg }, { shouldFocus: true }),
    );
    return known.length > 0;
  };
  const save = usePatchDeployment(d.id, { onReload, onFieldIssues: setIssues });
  const dirty = cuts.length + settings.length > 0;

  const submit = form.handleSubmit((v) =>
    save.mutate({ id: d.id, ifMatch: baseline.etag, patch: toPatch(d, v) }, { onSuccess: onSaved }),
  );
  const allowed = (key: Parameters<typeof revisionAllowed>[1]) => revisionAllowed(d, key);

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate aria-label="Deployment settings" className="space-y-6">
        <fieldset disabled={!canEdit || !hydrated} className="space-y-6">
          <FixedFields deployment={d} />
          <Card>
            <CardHeader
              title="Source"
              description="What the next revision builds or runs. Changing these cuts a new revision."
            />
            <CardBody className="grid gap-4 sm:grid-cols-2">
              {allowed("repo_ref") && (
                <TextField
                  name="source_revision_config.repo_ref"
                  label="Branch or ref"
                  hint="A branch, tag (refs/tags/...) or commit."
                />
              )}
              {allowed("graph_config_path") && (
                <TextField
                  name="source_revision_config.graph_config_path"
                  label="Graph config path"
                  placeholder="langgraph.json"
                />
              )}
              {allowed("image_uri") && (
                <TextField
                  name="source_revision_config.image_uri"
                  label="Image"
                  placeholder="registry.example.com/agent:1.0"
                />
              )}
              {allowed("source_tarball_path") && canEdit && (
                <SourceUpload deployment={d} onUploaded={onSaved} />
              )}
              {configAllowed(d, "install_command") && (
                <TextField
                  name="source_config.install_command"
                  label="Install command"
                  placeholder="default"
                />
              )}
              {configAllowed(d, "build_command") && (
                <TextField
                  name="source_config.build_command"
                  label="Build command"
                  placeholder="default"
                />
              )}
              {configAllowed(d, "template_id") && <TemplateField />}
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Settings" description="Saved without cutting a new revision." />
            <CardBody className="space-y-4">
              <TextField
                name="source_config.custom_url"
                label="Custom URL"
                type="url"
                placeholder="https://agent.example.com"
                mono={false}
              />
              {configAllowed(d, "build_on_push") && (
                <SwitchField
                  name="source_config.build_on_push"
                  label="Build on push"
                  hint="Cut a revision whenever the branch moves. Not for tag refs."
                />
              )}
              {configAllowed(d, "previews") && !d.preview && <PreviewsFields />}
              {configAllowed(d, "listener_config") && (
                <TextField
                  name="source_config.listener_config.k8s_namespace"
                  label="Listener namespace"
                  hint="The Kubernetes namespace the remote listener deploys into."
                />
              )}
            </CardBody>
          </Card>
          <Card>
            <CardHeader
              title="Resources"
              description="CPU, memory and replicas. Empty fields use platform defaults; limits default to twice the request. Changing resources cuts a new revision."
            />
            <CardBody>
              <ResourceFields />
            </CardBody>
          </Card>
        </fieldset>
        {canEdit && (
          <div className="sticky bottom-0 z-10 -mx-1 space-y-3 rounded-lg border border-zinc-200 bg-white/95 p-4 shadow-lg backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/95">
            <ChangeNotice
              cuts={cuts}
              settings={settings}
              nextRevision={latest ? latest.number + 1 : null}
            />
            <div className="flex justify-end gap-2">
              <Button
                variant="secondary"
                disabled={!dirty || save.isPending}
                onClick={() => form.reset()}
              >
                Discard changes
              </Button>
              <Button type="submit" disabled={!dirty || save.isPending}>
                {save.isPending ? "Saving…" : "Save settings"}
              </Button>
            </div>
          </div>
        )}
        <UnsavedChangesGuard dirty={dirty} what="the settings" />
      </form>
    </FormProvider>
  );
}

function TemplateField() {
  const trpc = useTRPC();
  const templates = useQuery(trpc.deployments.templates.queryOptions()).data ?? [];
  return (
    <TextField
      name="source_config.template_id"
      label="Template"
      hint={templates.length ? `One of: ${templates.map((t) => t.id).join(", ")}` : undefined}
    />
  );
}
