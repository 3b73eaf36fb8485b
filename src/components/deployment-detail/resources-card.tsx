import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import type { Deployment } from "@/schemas/deployments";
import { groupLabels, resourceLabel, withUnit } from "@/schemas/field-words";
import { resourceGroups } from "@/schemas/resource-groups";
import type { ResourceSpec } from "@/schemas/resource-spec";

type Spec = Partial<Record<string, unknown>>;
const numberAt = (spec: Spec, key: string) =>
  typeof spec[key] === "number" ? (spec[key] as number) : null;

/** "0.5 cores" over "limit 1 core"; unset values are the platform's defaults. */
function Amount({ spec, request, limit }: { spec: Spec; request: string; limit: string }) {
  const r = numberAt(spec, request);
  const l = numberAt(spec, limit);
  return (
    <>
      <span className="block">{r === null ? "Default" : withUnit(request, r)}</span>
      {l !== null && (
        <span className="block text-xs text-zinc-500 dark:text-zinc-400">
          limit {withUnit(limit, l)}
        </span>
      )}
    </>
  );
}

function Replicas({ spec, prefix }: { spec: Spec; prefix: string }) {
  const min = numberAt(spec, `${prefix}min_scale`);
  const max = numberAt(spec, `${prefix}max_scale`);
  if (min === null && max === null) return <>Default</>;
  if (min === max) return <>{min}</>;
  return (
    <>
      {min ?? "default"} to {max ?? "default"}
    </>
  );
}

const structuredKeys = [
  "labels",
  "annotations",
  "image_pull_secrets",
  "volumes",
  "volume_mounts",
  "init_containers",
  "sidecars",
] as const;

/**
 * The resource spec as a table: CPU and memory with units and their limits, replicas, for the
 * server and every other component that has a value set; structured parts as JSON.
 */
export function ResourcesCard({ deployment }: { deployment: Deployment }) {
  const spec: Spec = deployment.source_config.resource_spec ?? {};
  const groups = resourceGroups.filter(
    ({ prefix }) =>
      prefix === "" ||
      ["cpu", "cpu_limit", "memory_mb", "memory_limit_mb", "min_scale", "max_scale"].some(
        (key) => numberAt(spec, prefix + key) !== null,
      ),
  );
  const extras = (["db_storage_gi", "db_max_connections"] as const)
    .filter((key) => numberAt(spec, key) !== null)
    .map((key) => ({ label: resourceLabel(key), value: withUnit(key, numberAt(spec, key)!) }));
  if (typeof spec.service_account_name === "string")
    extras.push({ label: "Service account", value: spec.service_account_name });
  const structured = structuredKeys.filter((key) => spec[key] != null) as (keyof ResourceSpec)[];

  return (
    <Card>
      <CardHeader
        title="Resources"
        description="Requests per replica, with their limits; unset values use the platform defaults (a limit defaults to twice its request)."
      />
      <CardBody className="space-y-4">
        <div className="overflow-x-auto">
          <table aria-label="Resources" className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Component
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  CPU
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Memory
                </th>
                <th scope="col" className="py-2 font-medium">
                  Replicas
                </th>
              </tr>
            </thead>
            <tbody>
              {groups.map(({ prefix, scaled }) => (
                <tr
                  key={prefix}
                  className="border-b border-zinc-100 align-top last:border-0 dark:border-zinc-800/70"
                >
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {groupLabels[prefix]}
                  </th>
                  <td className="py-2 pr-3">
                    <Amount spec={spec} request={`${prefix}cpu`} limit={`${prefix}cpu_limit`} />
                  </td>
                  <td className="py-2 pr-3">
                    <Amount
                      spec={spec}
                      request={`${prefix}memory_mb`}
                      limit={`${prefix}memory_limit_mb`}
                    />
                  </td>
                  <td className="py-2">
                    {scaled ? <Replicas spec={spec} prefix={prefix} /> : "1"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {extras.length > 0 && <DescriptionList items={extras} />}
        {structured.map((key) => (
          <div key={key}>
            <h3 className="text-xs font-medium text-zinc-500 dark:text-zinc-400">
              {resourceLabel(key)}
            </h3>
            <pre className="mt-1 overflow-x-auto rounded-md bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950">
              {JSON.stringify(spec[key], null, 2)}
            </pre>
          </div>
        ))}
      </CardBody>
    </Card>
  );
}
