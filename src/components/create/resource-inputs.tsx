import type { UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { CreateValues } from "./create-model";

type ResourceKey = "cpu" | "memory_mb" | "min_scale" | "max_scale";

const fields: { key: ResourceKey; label: string; hint: string; step: string }[] = [
  { key: "cpu", label: "CPU (cores)", hint: "0.1 to 8 cores", step: "0.1" },
  { key: "memory_mb", label: "Memory (MB)", hint: "At least 128 MB", step: "128" },
  { key: "min_scale", label: "Minimum replicas", hint: "0 only for development", step: "1" },
  {
    key: "max_scale",
    label: "Maximum replicas",
    hint: "At least the minimum, at most 100",
    step: "1",
  },
];

/** The agent server's request and replicas; an emptied field is left to the service's default. */
export function ResourceInputs({ form }: { form: UseFormReturn<CreateValues> }) {
  const errors = form.formState.errors.resource_spec;
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
              {...form.register(`resource_spec.${key}`, {
                setValueAs: (v: unknown) => (v === "" || v == null ? null : Number(v)),
                deps: key === "min_scale" ? ["resource_spec.max_scale"] : undefined,
              })}
            />
          )}
        </FormField>
      ))}
    </div>
  );
}
