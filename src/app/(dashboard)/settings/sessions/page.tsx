import type { Metadata } from "next";
import { SessionsView } from "@/components/settings/sessions/sessions-view";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  await getQueryClient().prefetchQuery(trpc.session.list.queryOptions());
  return (
    <HydrateClient>
      <SessionsView />
    </HydrateClient>
  );
}
