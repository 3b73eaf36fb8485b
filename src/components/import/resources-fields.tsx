import type { UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ConfigureValues } from "./wizard-model";

type ResourceKey = "cpu" | "memory_mb" | "min_scale" | "max_scale";

const fields: { key: ResourceKey; label: string; hint: string; step: string }[] = [
  { key: "cpu", label: "CPU (cores)", hint: "0.1 to 8; the limit is twice this", step: "0.1" },
  {
    key: "memory_mb",
    label: "Memory (MB)",
    hint: "At least 128; the limit is twice this",
    step: "128",
  },
  { key: "min_scale", label: "Min replicas", hint: "0 only for development", step: "1" },
  { key: "max_scale", label: "Max replicas", hint: "At least min, at most 100", step: "1" },
];

/** The main server's resources; an emptied field is left to the service's default. */
export function ResourcesFields({ form }: { form: UseFormReturn<ConfigureValues> }) {
  const errors = form.formState.errors.resource_spec;
  return (
    <fieldset>
      <legend className="mb-3 text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Resources
      </legend>
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
                {...form.register(`resource_spec.${key}`, {
                  setValueAs: (v: unknown) => (v === "" || v == null ? null : Number(v)),
                  deps: key === "min_scale" ? ["resource_spec.max_scale"] : undefined,
                })}
              />
            )}
          </FormField>
        ))}
      </div>
    </fieldset>
  );
}
