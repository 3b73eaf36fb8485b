import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import type { Deployment } from "@/schemas/deployments";

/** The resource spec as set: numbers as a grid, structured parts (labels, volumes, sidecars) as JSON. */
export function ResourcesCard({ deployment }: { deployment: Deployment }) {
  const spec = deployment.source_config.resource_spec ?? {};
  const entries = Object.entries(spec).filter(([, v]) => v !== null && v !== undefined);
  const scalars = entries.filter(([, v]) => typeof v !== "object");
  const structured = entries.filter(([, v]) => typeof v === "object");
  return (
    <Card>
      <CardHeader
        title="Resources"
        description="CPU, memory and scaling. Unset values use the platform defaults."
      />
      <CardBody className="space-y-4">
        {entries.length === 0 && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Platform defaults.</p>
        )}
        {scalars.length > 0 && (
          <DescriptionList items={scalars.map(([k, v]) => ({ label: k, value: String(v) }))} />
        )}
        {structured.map(([k, v]) => (
          <div key={k}>
            <h3 className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{k}</h3>
            <pre className="mt-1 overflow-x-auto rounded-md bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950">
              {JSON.stringify(v, null, 2)}
            </pre>
          </div>
        ))}
      </CardBody>
    </Card>
  );
}
