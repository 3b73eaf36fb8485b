import type { Metadata } from "next";
import { AgentConnections } from "@/components/agent-auth/agent-connections";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { HydrateClient } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame } from "../load";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: `Connections · ${deployment.name}` };
}

export default async function DeploymentConnectionsPage({ params }: { params: Params }) {
  const { id } = await params;
  await prefetchDeploymentFrame(id);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <AgentConnections deploymentId={id} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
