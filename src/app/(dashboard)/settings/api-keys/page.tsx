import type { Metadata } from "next";
import { ApiKeysView } from "@/components/settings/api-keys/api-keys-view";
import { RoleNotice } from "@/components/settings/role-notice";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const me = await loadMe();
  if (me?.role !== "admin") {
    return <RoleNotice needs="admin" role={me?.role ?? "none"} what="see and manage API keys" />;
  }
  await getQueryClient().prefetchQuery(trpc.apiKeys.list.queryOptions());
  return (
    <HydrateClient>
      <ApiKeysView />
    </HydrateClient>
  );
}
