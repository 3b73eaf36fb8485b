import type { Metadata } from "next";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { RuntimeLogsView } from "@/components/deployment-detail/runtime-logs/runtime-logs-view";
import { HydrateClient } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame } from "../load";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: `Logs · ${deployment.name}` };
}

export default async function DeploymentLogsPage({ params }: { params: Params }) {
  const { id } = await params;
  await prefetchDeploymentFrame(id);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <RuntimeLogsView id={id} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
