import type { Metadata } from "next";
import { IntegrationsView } from "@/components/settings/integrations/integrations-view";
import { RoleNotice } from "@/components/settings/role-notice";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Code-host integrations" };

export default async function IntegrationsPage() {
  const me = await loadMe();
  const canEdit = me?.role === "admin" || me?.role === "editor";
  await getQueryClient().prefetchQuery(trpc.integrations.list.queryOptions());
  return (
    <div className="space-y-4">
      {!canEdit && (
        <RoleNotice
          needs="editor or admin"
          role={me?.role ?? "none"}
          what="register integrations"
        />
      )}
      <HydrateClient>
        <IntegrationsView canEdit={canEdit} />
      </HydrateClient>
    </div>
  );
}
