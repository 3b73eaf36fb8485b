import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

type ResourceKey = "cpu" | "memory_mb" | "min_scale" | "max_scale";

/** What a form needs to hold for these inputs: the main server's request and replicas. */
export interface ResourceValues {
  resource_spec: Partial<Record<ResourceKey, number | null>>;
}

const fields: { key: ResourceKey; label: string; hint: string; step: string }[] = [
  { key: "cpu", label: "CPU (cores)", hint: "0.1 to 8; the limit is twice this", step: "0.1" },
  {
    key: "memory_mb",
    label: "Memory (MB)",
    hint: "At least 128; the limit is twice this",
    step: "128",
  },
  { key: "min_scale", label: "Minimum replicas", hint: "0 only for development", step: "1" },
  {
    key: "max_scale",
    label: "Maximum replicas",
    hint: "At least the minimum, at most 100",
    step: "1",
  },
];

/**
 * The main server's request and replicas, for the create forms and the import wizard; an emptied
 * field is left to the service's default.
 */
export function ResourceInputs<T extends FieldValues & ResourceValues, C, V>({
  form,
}: {
  form: UseFormReturn<T, C, V>;
}) {
  const errors = (form.formState.errors as { resource_spec?: Record<string, { message?: string }> })
    .resource_spec;
  const path = (key: ResourceKey) => `resource_spec.${key}` as Path<T>;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {fields.map(({ key, label, hint, step }) => (
        <FormField
          key={key}
          id={`resource-${key}`}
          label={label}
          hint={hint}
          error={errors?.[key]?.message}
        >
          {(aria) => (
            <Input
              {...aria}
              type="number"
              inputMode="decimal"
              step={step}
              {...form.register(path(key), {
                setValueAs: (v: unknown) => (v === "" || v == null ? null : Number(v)),
                deps: key === "min_scale" ? [path("max_scale")] : undefined,
              })}
            />
          )}
        </FormField>
      ))}
    </div>
  );
}
