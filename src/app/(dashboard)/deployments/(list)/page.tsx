import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { DeploymentsView } from "@/components/deployments-list/deployments-view";
import { filtersFromParams, listInput } from "@/components/deployments-list/list-params";
import { PageHeader } from "@/components/shell/page-header";
import { buttonClass } from "@/components/ui/button";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

export const metadata: Metadata = { title: "Deployments" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function DeploymentsPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const filters = filtersFromParams({ get: (name) => [raw[name]].flat()[0] ?? null });
  const queryClient = getQueryClient();
  // Prefetch what the client view asks for first, so the table renders with data.
  const keys = await queryClient.fetchQuery(trpc.tags.listKeys.queryOptions()).catch(() => []);
  await Promise.all([
    queryClient.prefetchQuery(trpc.deployments.list.queryOptions(listInput(filters))),
    ...keys.map((k) =>
      queryClient.prefetchQuery(trpc.tags.listValues.queryOptions({ tagKeyId: k.id })),
    ),
  ]);
  return (
    <>
      <PageHeader
        title="Deployments"
        description="Every agent server in this workspace."
        actions={
          <Link href="/import" className={buttonClass()}>
            Import
          </Link>
        }
      />
      <HydrateClient>
        <Suspense>
          <DeploymentsView />
        </Suspense>
      </HydrateClient>
    </>
  );
}
