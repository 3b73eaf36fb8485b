import type { Metadata } from "next";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { DeploymentOverview } from "@/components/deployment-detail/deployment-overview";
import { HydrateClient } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame, prefetchTags } from "./load";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: deployment.name };
}

export default async function DeploymentPage({ params }: { params: Params }) {
  const { id } = await params;
  await Promise.all([prefetchDeploymentFrame(id), prefetchTags()]);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <DeploymentOverview id={id} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
