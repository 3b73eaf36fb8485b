"use client";

import { NameAndTypeFields, takenMessage } from "@/components/deployment-form/name-and-type-fields";
import { Alert } from "@/components/ui/alert";
import { CheckboxField } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { formResolver } from "@/components/ui/form-resolver";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { ResourcesFields } from "./resources-fields";
import { SecretsEditor } from "./secrets-editor";
import { configureSchema, previewDefaultsText, type ConfigureValues } from "./wizard-model";

export interface StepErrors {
  fields: Record<string, string>;
  message?: string;
}

/** Step 3: the deployment's settings, validated as the user types with the API's schemas. */
export function ConfigureStep({
  values,
  serverErrors,
  onBack,
  onNext,
}: {
  values: ConfigureValues;
  serverErrors: StepErrors | null;
  onBack: (draft: ConfigureValues) => void;
  onNext: (values: ConfigureValues) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<ConfigureValues>({
    resolver: formResolver(configureSchema),
    mode: "onChange",
    defaultValues: values,
  });
  const { errors, isSubmitting } = form.formState;
  const buildOnPush = useWatch({ control: form.control, name: "build_on_push" });
  const previews = useWatch({ control: form.control, name: "previews" });

  // Errors the API gave on create belong to these fields: show them where they are typed.
  useEffect(() => {
    for (const [path, message] of Object.entries(serverErrors?.fields ?? {})) {
      form.setError(path as keyof ConfigureValues, { message }, { shouldFocus: true });
    }
  }, [serverErrors, form]);

  const submit = form.handleSubmit(async (v) => {
    const { available } = await queryClient.fetchQuery(
      trpc.deployments.nameAvailable.queryOptions({ name: v.name }, { staleTime: 0 }),
    );
    if (!available)
      return form.setError("name", { message: takenMessage(v.name) }, { shouldFocus: true });
    onNext(v);
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Configure the deployment" className="space-y-6">
      {serverErrors?.message && <Alert>{serverErrors.message}</Alert>}
      <div className="grid gap-5 sm:grid-cols-2">
        <NameAndTypeFields form={form} />
        <FormField
          id="repo-ref"
          label="Branch"
          hint="Defaults to the repository's default branch."
          error={errors.repo_ref?.message}
        >
          {(aria) => (
            <Input
              {...aria}
              className="font-mono"
              {...form.register("repo_ref", { deps: ["build_on_push"] })}
            />
          )}
        </FormField>
        <FormField
          id="graph-config-path"
          label="Graph config path"
          hint="Path of the graph configuration file in the repository."
          error={errors.graph_config_path?.message}
        >
          {(aria) => (
            <Input {...aria} className="font-mono" {...form.register("graph_config_path")} />
          )}
        </FormField>
      </div>
      <CheckboxField
        id="build-on-push"
        label="Build on push"
        hint="Cut a new revision whenever the branch moves."
        error={errors.build_on_push?.message}
        {...form.register("build_on_push", { deps: ["previews"] })}
      />
      <CheckboxField
        id="previews"
        label="Preview every pull request"
        hint={
          buildOnPush
            ? `Each pull request into this branch becomes a deployment of its own (${previewDefaultsText}; forks never get secrets). Change these later in Settings.`
            : "Needs Build on push."
        }
        error={errors.previews?.message}
        disabled={!buildOnPush && !previews}
        {...form.register("previews")}
      />
      <ResourcesFields form={form} />
      <SecretsEditor form={form} />
      <div className="flex justify-between gap-2 border-t border-zinc-200 pt-5 dark:border-zinc-800">
        <Button variant="secondary" onClick={() => onBack(form.getValues())}>
          Back
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Checking…" : "Next: review"}
        </Button>
      </div>
    </form>
  );
}
