"use client";

import { Alert } from "@/components/ui/alert";
import { CheckboxField } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { formResolver } from "@/components/ui/form-resolver";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { deploymentTypes } from "@/schemas/deployments";
import { useTRPC } from "@/trpc/react";
import { NameAvailability, useNameAvailability } from "./name-availability";
import { ResourcesFields } from "./resources-fields";
import { SecretsEditor } from "./secrets-editor";
import { configureSchema, deploymentTypeLabels, type ConfigureValues } from "./wizard-model";

export interface StepErrors {
  fields: Record<string, string>;
  message?: string;
}

const takenMessage = (name: string) =>
  `A deployment named ${name} already exists in this workspace`;

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
  const name = form.watch("name");
  const availability = useNameAvailability(name);

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

  const nameError =
    errors.name?.message ?? (availability.available === false ? takenMessage(name) : undefined);

  return (
    <form noValidate onSubmit={submit} aria-label="Configure the deployment" className="space-y-6">
      {serverErrors?.message && <Alert>{serverErrors.message}</Alert>}
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          id="deployment-name"
          label="Deployment name"
          hint="Lowercase letters, digits and '-'; used in URLs."
          error={nameError}
        >
          {(aria) => (
            <div className="space-y-1.5">
              <Input
                {...aria}
                aria-describedby={[aria["aria-describedby"], "deployment-name-status"]
                  .filter(Boolean)
                  .join(" ")}
                autoComplete="off"
                className="font-mono"
                {...form.register("name")}
              />
              <NameAvailability name={name} state={availability} />
            </div>
          )}
        </FormField>
        <FormField
          id="deployment-type"
          label="Deployment type"
          hint="Cannot be changed later."
          error={errors.deployment_type?.message}
        >
          {(aria) => (
            <Select
              {...aria}
              className="w-full"
              {...form.register("deployment_type", { deps: ["resource_spec.min_scale"] })}
            >
              {deploymentTypes.map((t) => (
                <option key={t} value={t}>
                  {deploymentTypeLabels[t]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
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
        {...form.register("build_on_push")}
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
