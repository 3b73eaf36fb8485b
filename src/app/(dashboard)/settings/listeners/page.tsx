import type { Metadata } from "next";
import { Alert } from "@/components/ui/alert";
import { ListenersView } from "@/components/settings/listeners/listeners-view";
import { getInfo } from "@/server/services/service-info";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Listeners" };

export default async function ListenersPage() {
  if (getInfo().mode !== "self_hosted")
    return (
      <Alert>
        Listeners run deployments in your own cluster: they need a self-hosted Hangar
        (HANGAR_MODE=self_hosted).
      </Alert>
    );
  const me = await loadMe();
  await getQueryClient().prefetchQuery(trpc.listeners.list.queryOptions({}));
  return (
    <HydrateClient>
      <ListenersView canManage={me?.role === "admin"} />
    </HydrateClient>
  );
}
