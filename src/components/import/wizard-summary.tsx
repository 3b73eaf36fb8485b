import type { Repository } from "@/schemas/codehost-integrations";
import { deploymentTypeLabels, type ConfigureValues } from "./wizard-model";

/** What has been chosen so far, beside the steps. */
export function WizardSummary({
  integrationName,
  repo,
  config,
}: {
  integrationName: string;
  repo: Repository | null;
  config: ConfigureValues | null;
}) {
  const rows: [string, string | null][] = [
    ["Integration", integrationName || null],
    ["Repository", repo ? `${repo.owner}/${repo.name}` : null],
    ["Name", config?.name ?? null],
    ["Branch", config?.repo_ref ?? null],
    ["Type", config ? deploymentTypeLabels[config.deployment_type] : null],
  ];
  return (
    <aside
      aria-label="Import summary"
      className="h-fit rounded-lg border border-zinc-200 bg-white p-4 text-sm shadow-xs dark:border-zinc-800 dark:bg-zinc-900/40"
    >
      <h2 className="mb-3 font-semibold">Summary</h2>
      <dl className="space-y-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}</dt>
            <dd className="truncate font-medium">
              {value ?? <span className="text-zinc-500 dark:text-zinc-400">Not chosen yet</span>}
            </dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
