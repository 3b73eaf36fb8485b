import type { Metadata } from "next";
import { ConnectedAccountsView } from "@/components/agent-auth/connected-accounts-view";
import { PageHeader } from "@/components/shell/page-header";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

export const metadata: Metadata = { title: "Connected accounts" };

export default async function ConnectedAccountsPage() {
  await getQueryClient().prefetchQuery(trpc.agentAuth.tokens.queryOptions({}));
  return (
    <>
      <PageHeader
        title="Connected accounts"
        description="Your accounts at OAuth providers, which agents use to act for you. Connect one from its provider's page."
      />
      <HydrateClient>
        <ConnectedAccountsView />
      </HydrateClient>
    </>
  );
}
