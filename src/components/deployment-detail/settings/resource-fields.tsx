"use client";

import { groupLabels } from "@/schemas/field-words";
import { resourceGroups } from "@/schemas/resource-groups";
import { NumberField } from "./fields";

function Group({ prefix, scaled }: { prefix: string; scaled: boolean }) {
  const name = (key: string) => `source_config.resource_spec.${prefix}${key}`;
  // Every group has the same fields: the group's name keeps each field's label unique.
  const label = (text: string) =>
    prefix ? (
      <>
        <span className="sr-only">{groupLabels[prefix]} </span>
        {text}
      </>
    ) : (
      text
    );
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <NumberField
        name={name("cpu")}
        label={label("CPU request (cores)")}
        step={0.1}
        placeholder="default"
      />
      <NumberField
        name={name("cpu_limit")}
        label={label("CPU limit (cores)")}
        step={0.1}
        placeholder="2× request"
      />
      <NumberField
        name={name("memory_mb")}
        label={label("Memory request (MB)")}
        step={1}
        placeholder="default"
      />
      <NumberField
        name={name("memory_limit_mb")}
        label={label("Memory limit (MB)")}
        step={1}
        placeholder="2× request"
      />
      {scaled && (
        <>
          <NumberField
            name={name("min_scale")}
            label={label("Minimum replicas")}
            step={1}
            placeholder="default"
          />
          <NumberField
            name={name("max_scale")}
            label={label("Maximum replicas")}
            step={1}
            placeholder="default"
          />
        </>
      )}
    </div>
  );
}

/** The numeric parts of the resource spec; structured parts (volumes, sidecars) pass through. */
export function ResourceFields() {
  const [main, ...others] = resourceGroups;
  return (
    <div className="space-y-4">
      <Group prefix={main.prefix} scaled={main.scaled} />
      <details className="group rounded-md border border-zinc-200 dark:border-zinc-800">
        <summary className="cursor-pointer rounded-md px-3 py-2 text-sm font-medium text-zinc-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300">
          Other components (queue, orchestrator, executor, Redis, database)
        </summary>
        <div className="space-y-6 border-t border-zinc-200 p-4 dark:border-zinc-800">
          {others.map((g) => (
            <fieldset key={g.prefix} className="space-y-3">
              <legend className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
                {groupLabels[g.prefix]}
              </legend>
              <Group prefix={g.prefix} scaled={g.scaled} />
            </fieldset>
          ))}
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <NumberField
              name="source_config.resource_spec.db_storage_gi"
              label="Database storage (GiB)"
              step={1}
              placeholder="default"
            />
            <NumberField
              name="source_config.resource_spec.db_max_connections"
              label="Database max connections"
              step={1}
              placeholder="default"
            />
          </div>
        </div>
      </details>
    </div>
  );
}
