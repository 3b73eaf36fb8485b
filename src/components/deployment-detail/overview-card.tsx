import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList, Mono } from "@/components/ui/description-list";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Deployment } from "@/schemas/deployments";
import { typeLabels } from "@/components/deployments-list/filters";
import { sourceLabels } from "@/components/deployments-list/source-labels";
import { StatusBadge } from "@/components/deployments-list/status-badge";

const shortId = (id: string | null) => (id ? <Mono>{id.slice(0, 8)}</Mono> : null);

export function OverviewCard({ deployment: d }: { deployment: Deployment }) {
  const url = d.source_config.custom_url;
  return (
    <Card>
      <CardHeader title="Overview" />
      <CardBody>
        <DescriptionList
          items={[
            { label: "Status", value: <StatusBadge status={d.status} /> },
            { label: "Source", value: sourceLabels[d.source] },
            { label: "Type", value: typeLabels[d.source_config.deployment_type] },
            { label: "Active revision", value: shortId(d.active_revision_id) },
            {
              label: "Latest revision",
              value:
                shortId(d.latest_revision_id) ??
                (d.source === "internal_container"
                  ? "Waiting for its first image"
                  : d.source === "internal_source"
                    ? "Waiting for its first upload"
                    : null),
            },
            {
              label: "Custom URL",
              value: url ? (
                <a
                  href={url}
                  className="text-blue-700 hover:underline dark:text-blue-400"
                  rel="noreferrer"
                  target="_blank"
                >
                  {url}
                </a>
              ) : null,
            },
            ...(d.tracked_packages.length
              ? [{ label: "Tracked packages", value: <Mono>{d.tracked_packages.join(", ")}</Mono> }]
              : []),
            {
              label: "Image version",
              value: d.image_version ? <Mono>{d.image_version}</Mono> : null,
            },
            { label: "Created", value: <RelativeTime iso={d.created_at} /> },
            { label: "Updated", value: <RelativeTime iso={d.updated_at} /> },
          ]}
        />
      </CardBody>
    </Card>
  );
}
