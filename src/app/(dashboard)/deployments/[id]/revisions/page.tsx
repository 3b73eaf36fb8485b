import type { Metadata } from "next";
import { Suspense } from "react";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { revisionFilters, revisionListInput } from "@/components/revisions/revision-params";
import { RevisionsView } from "@/components/revisions/revisions-view";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame } from "../load";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: `Revisions · ${deployment.name}` };
}

export default async function RevisionsPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const { id } = await params;
  const raw = await searchParams;
  const filters = revisionFilters({ get: (name) => [raw[name]].flat()[0] ?? null });
  await Promise.all([
    prefetchDeploymentFrame(id),
    getQueryClient().prefetchQuery(
      trpc.revisions.list.queryOptions(revisionListInput(id, filters)),
    ),
  ]);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <Suspense>
          <RevisionsView id={id} />
        </Suspense>
      </DeploymentFrame>
    </HydrateClient>
  );
}
