import type { UseFormReturn } from "react-hook-form";
import { ResourceInputs } from "@/components/deployment-form/resource-inputs";
import type { ConfigureValues } from "./wizard-model";

/** The wizard's resources step section. */
export function ResourcesFields({ form }: { form: UseFormReturn<ConfigureValues> }) {
  return (
    <fieldset>
      <legend className="mb-3 text-sm font-medium text-zinc-700 dark:text-zinc-300">
        Resources
      </legend>
      <ResourceInputs form={form} />
    </fieldset>
  );
}
