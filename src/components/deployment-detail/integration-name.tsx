"use client";

import { useQuery } from "@tanstack/react-query";
import { integrationHref } from "@/components/settings/integrations/integration-link";
import { IdChip } from "@/components/ui/id-chip";
import { useTRPC } from "@/trpc/react";

/** A deployment's code-host integration by name, with its id whole, linked to its card. */
export function IntegrationName({ integrationId }: { integrationId: string }) {
  const trpc = useTRPC();
  const integration = useQuery(trpc.codehostIntegrations.list.queryOptions()).data?.find(
    (i) => i.id === integrationId,
  );
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      {integration && <span className="font-medium">{integration.name}</span>}
      <IdChip
        id={integrationId}
        label={integration ? `${integration.name} integration` : "integration"}
        href={integrationHref(integrationId)}
      />
    </span>
  );
}
