import type { Metadata } from "next";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { SettingsEditor } from "@/components/deployment-detail/settings/settings-editor";
import { HydrateClient } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame } from "../load";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: `Settings · ${deployment.name}` };
}

export default async function DeploymentSettingsPage({ params }: { params: Params }) {
  const { id } = await params;
  await Promise.all([prefetchDeploymentFrame(id)]);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <SettingsEditor id={id} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
