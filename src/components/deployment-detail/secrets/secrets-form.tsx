"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { ClipboardPaste, Plus } from "lucide-react";
import { useState } from "react";
import {
  FormProvider,
  useFieldArray,
  useForm,
  useWatch,
  type FieldPath,
  type Resolver,
} from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { changesThatCutRevision } from "@/schemas/revision-rules";
import { ChangeNotice } from "../change-notice";
import { UnsavedChangesGuard } from "../unsaved-changes";
import { useLatestRevision } from "../use-deployment";
import {
  usePatchDeployment,
  type FieldIssue,
  type DeploymentEditorProps,
} from "../use-patch-deployment";
import { PasteEnvDialog } from "./paste-env-dialog";
import { SecretRowFields } from "./secret-row";
import {
  mergePasted,
  rowsOf,
  secretsFormSchema,
  toSecretsPayload,
  type SecretsValues,
} from "./secret-rows";

const noConfig = { source_config: {}, source_revision_config: {} };

export function SecretsForm({ baseline, canEdit, onSaved, onReload }: DeploymentEditorProps) {
  const d = baseline.deployment;
  const form = useForm<SecretsValues>({
    // Rows carry `keep`/`stored` beside what the schema checks: validate, keep the raw rows.
    resolver: zodResolver(secretsFormSchema, undefined, {
      raw: true,
    }) as unknown as Resolver<SecretsValues>,
    defaultValues: { secrets: rowsOf(d) },
  });
  const rows = useFieldArray({ control: form.control, name: "secrets" });
  const watched = useWatch({ control: form.control, name: "secrets" }) ?? [];
  const [pasting, setPasting] = useState(false);
  const latest = useLatestRevision(d.id);
  const cuts = changesThatCutRevision(
    { ...noConfig, secrets: d.secrets },
    { ...noConfig, secrets: toSecretsPayload(watched) },
  );
  const setIssues = (issues: FieldIssue[]) => {
    const known = issues.filter((i) => i.path.startsWith("secrets."));
    known.forEach((i) =>
      form.setError(i.path as FieldPath<SecretsValues>, { message: i.msg }, { shouldFocus: true }),
    );
    return known.length > 0;
  };
  const save = usePatchDeployment(d.id, { onReload, onFieldIssues: setIssues });
  const submit = form.handleSubmit((v) =>
    save.mutate(
      { id: d.id, ifMatch: baseline.etag, patch: { secrets: toSecretsPayload(v.secrets) } },
      { onSuccess: onSaved },
    ),
  );

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate aria-label="Secrets" className="space-y-6">
        <Card>
          <CardHeader
            title="Secrets"
            description="Environment variables for the agent server. Stored values are never shown again; you can reveal only what you type here. Changing secrets cuts a new revision."
            actions={
              canEdit && (
                <Button variant="secondary" size="sm" onClick={() => setPasting(true)}>
                  <ClipboardPaste aria-hidden className="size-4" />
                  Paste .env
                </Button>
              )
            }
          />
          <CardBody className="space-y-3">
            {rows.fields.length === 0 && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">No secrets.</p>
            )}
            {rows.fields.length > 0 && (
              <ul aria-label="Secrets" className="space-y-3">
                {rows.fields.map((field, index) => (
                  <SecretRowFields
                    key={field.id}
                    index={index}
                    canEdit={canEdit}
                    onRemove={() => rows.remove(index)}
                  />
                ))}
              </ul>
            )}
            {canEdit && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() =>
                  rows.append(
                    { name: "", value: "", keep: false, stored: false },
                    { focusName: `secrets.${rows.fields.length}.name` },
                  )
                }
              >
                <Plus aria-hidden className="size-4" />
                Add secret
              </Button>
            )}
          </CardBody>
        </Card>
        {canEdit && (
          <div className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <ChangeNotice
              cuts={cuts}
              settings={[]}
              nextRevision={latest ? latest.number + 1 : null}
            />
            <div className="flex justify-end gap-2">
              <Button
                variant="secondary"
                disabled={!cuts.length || save.isPending}
                onClick={() => form.reset()}
              >
                Discard changes
              </Button>
              <Button type="submit" disabled={!cuts.length || save.isPending}>
                {save.isPending ? "Saving…" : "Save secrets"}
              </Button>
            </div>
          </div>
        )}
        <PasteEnvDialog
          open={pasting}
          onClose={() => setPasting(false)}
          onAdd={(entries) => {
            rows.replace(mergePasted(form.getValues("secrets"), entries));
            setPasting(false);
          }}
        />
        <UnsavedChangesGuard dirty={cuts.length > 0} what="the secrets" />
      </form>
    </FormProvider>
  );
}
