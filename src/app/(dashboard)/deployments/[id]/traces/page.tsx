import type { Metadata } from "next";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { DeploymentTraces } from "@/components/tracing/project-traces";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame } from "../load";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: `Traces · ${deployment.name}` };
}

// Its own route segment: the Traces code (chart, waterfall, JSON viewer) loads only with this tab.
export default async function DeploymentTracesPage({ params }: { params: Params }) {
  const { id } = await params;
  await Promise.all([
    prefetchDeploymentFrame(id),
    getQueryClient().prefetchQuery(
      trpc.tracing.deploymentProject.queryOptions({ deploymentId: id }),
    ),
  ]);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <DeploymentTraces deploymentId={id} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
