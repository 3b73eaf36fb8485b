import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DeploymentDetail } from "@/components/deployment/deployment-detail";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

type Params = Promise<{ id: string }>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadDeployment(id: string) {
  if (!UUID.test(id)) notFound();
  try {
    return await getQueryClient().fetchQuery(trpc.deployments.get.queryOptions({ id }));
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: deployment.name };
}

export default async function DeploymentPage({ params }: { params: Params }) {
  const { id } = await params;
  await loadDeployment(id);
  const queryClient = getQueryClient();
  const keys = await queryClient.fetchQuery(trpc.tags.listKeys.queryOptions());
  await Promise.all([
    queryClient.prefetchQuery(trpc.session.me.queryOptions()),
    ...keys.map((k) =>
      queryClient.prefetchQuery(trpc.tags.listValues.queryOptions({ tagKeyId: k.id })),
    ),
  ]);
  return (
    <HydrateClient>
      <DeploymentDetail id={id} />
    </HydrateClient>
  );
}
