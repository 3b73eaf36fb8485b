"use client";

import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { NameAvailability, useNameAvailability } from "@/components/import/name-availability";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { deploymentTypes } from "@/schemas/deployments";

type DeploymentType = (typeof deploymentTypes)[number];

export const deploymentTypeLabels: Record<DeploymentType, string> = {
  dev_free: "Development (free)",
  dev: "Development",
  prod: "Production",
};

export const takenMessage = (name: string) =>
  `A deployment named ${name} already exists in this workspace`;

interface NameAndType {
  name: string;
  deployment_type: DeploymentType;
}

/**
 * The deployment's name (checked for availability as it is typed) and type, for the create forms
 * and the import wizard. Rendered as two grid cells of the caller's grid.
 */
export function NameAndTypeFields<T extends FieldValues & NameAndType, C, V>({
  form,
}: {
  form: UseFormReturn<T, C, V>;
}) {
  const field = (key: keyof NameAndType | "resource_spec.min_scale") => key as Path<T>;
  const name = form.watch(field("name")) as string;
  const availability = useNameAvailability(name);
  const errors = form.formState.errors as {
    name?: { message?: string };
    deployment_type?: { message?: string };
  };
  const nameError =
    errors.name?.message ?? (availability.available === false ? takenMessage(name) : undefined);
  return (
    <>
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
              {...form.register(field("name"))}
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
            {...form.register(field("deployment_type"), {
              deps: [field("resource_spec.min_scale")],
            })}
          >
            {deploymentTypes.map((t) => (
              <option key={t} value={t}>
                {deploymentTypeLabels[t]}
              </option>
            ))}
          </Select>
        )}
      </FormField>
    </>
  );
}
