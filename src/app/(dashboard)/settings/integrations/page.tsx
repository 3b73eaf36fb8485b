import type { Metadata } from "next";
import { IntegrationsView } from "@/components/settings/integrations/integrations-view";
import { canChangeOrganization, OrgRoleNotice } from "@/components/settings/role-notice";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Code-host integrations" };

export default async function IntegrationsPage() {
  const me = await loadMe();
  const canEdit = canChangeOrganization(me?.org_role);
  await getQueryClient().prefetchQuery(trpc.codehostIntegrations.details.queryOptions());
  return (
    <div className="space-y-4">
      {!canEdit && <OrgRoleNotice role={me?.org_role ?? "none"} what="register integrations" />}
      <HydrateClient>
        <IntegrationsView canEdit={canEdit} />
      </HydrateClient>
    </div>
  );
}
