import { DescriptionList, Mono } from "@/components/ui/description-list";
import type { Repository } from "@/schemas/codehost-integrations";
import { deploymentTypeLabels, previewDefaultsText, type ConfigureValues } from "./wizard-model";

/** Step 4: everything the create will send; secret values stay masked. */
export function ReviewSummary({
  integrationName,
  repo,
  config,
}: {
  integrationName: string;
  repo: Repository;
  config: ConfigureValues;
}) {
  const r = config.resource_spec;
  const orDefault = (v: number | null | undefined, unit = "") =>
    v == null ? "service default" : `${v}${unit}`;
  return (
    <div className="space-y-6">
      <section aria-labelledby="review-source" className="space-y-3">
        <h3 id="review-source" className="text-sm font-semibold">
          Source
        </h3>
        <DescriptionList
          items={[
            { label: "Integration", value: integrationName },
            { label: "Repository", value: <Mono>{`${repo.owner}/${repo.name}`}</Mono> },
            { label: "Repository URL", value: <Mono>{repo.url}</Mono> },
            { label: "Branch", value: <Mono>{config.repo_ref}</Mono> },
            { label: "Graph config path", value: <Mono>{config.graph_config_path}</Mono> },
            { label: "Build on push", value: config.build_on_push ? "Yes" : "No" },
            {
              label: "Previews",
              value: config.previews ? `On: ${previewDefaultsText}` : "Off",
            },
          ]}
        />
      </section>
      <section aria-labelledby="review-deployment" className="space-y-3">
        <h3 id="review-deployment" className="text-sm font-semibold">
          Deployment
        </h3>
        <DescriptionList
          items={[
            { label: "Name", value: <Mono>{config.name}</Mono> },
            { label: "Type", value: deploymentTypeLabels[config.deployment_type] },
            { label: "CPU", value: orDefault(r.cpu, " cores") },
            { label: "Memory", value: orDefault(r.memory_mb, " MB") },
            { label: "Replicas", value: `${orDefault(r.min_scale)} to ${orDefault(r.max_scale)}` },
          ]}
        />
      </section>
      <section aria-labelledby="review-secrets" className="space-y-3">
        <h3 id="review-secrets" className="text-sm font-semibold">
          Secrets
        </h3>
        {config.secrets.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No secrets.</p>
        ) : (
          <ul
            aria-label="Secrets to create"
            className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800"
          >
            {config.secrets.map((s) => (
              <li key={s.name} className="flex justify-between py-1.5 font-mono">
                <span>{s.name}</span>
                <span aria-label="Value hidden" className="text-zinc-500 dark:text-zinc-400">
                  ••••••••
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
