import { Lock } from "lucide-react";
import { typeLabels } from "@/components/deployments-list/filters";
import { sourceLabels } from "@/components/deployments-list/source-labels";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList, Mono } from "@/components/ui/description-list";
import type { Deployment } from "@/schemas/deployments";
import { IntegrationName } from "../integration-name";
import { ListenerName } from "../listener-name";

/** The fields the contract makes immutable, shown but not editable. */
export function FixedFields({ deployment: d }: { deployment: Deployment }) {
  const c = d.source_config;
  const items = [
    { label: "Name", value: <Mono>{d.name}</Mono> },
    { label: "Source", value: sourceLabels[d.source] },
    { label: "Deployment type", value: typeLabels[c.deployment_type] },
    c.integration_id && {
      label: "Integration",
      value: <IntegrationName integrationId={c.integration_id} />,
    },
    c.repo_url && { label: "Repository", value: <Mono>{c.repo_url}</Mono> },
    c.listener_id && { label: "Listener", value: <ListenerName listenerId={c.listener_id} /> },
  ].filter((item) => !!item);
  return (
    <Card>
      <CardHeader
        title="Fixed at creation"
        description={
          <span className="inline-flex items-center gap-1.5">
            <Lock aria-hidden className="size-3.5" />
            These cannot be changed; create a new deployment instead.
          </span>
        }
      />
      <CardBody>
        <DescriptionList items={items} />
      </CardBody>
    </Card>
  );
}
