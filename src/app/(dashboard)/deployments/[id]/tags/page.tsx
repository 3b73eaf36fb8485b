import type { Metadata } from "next";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { TagsEditor } from "@/components/deployment-detail/tags/tags-editor";
import { HydrateClient } from "@/trpc/server";
import { loadDeployment, prefetchDeploymentFrame, prefetchTags } from "../load";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { deployment } = await loadDeployment((await params).id);
  return { title: `Tags · ${deployment.name}` };
}

export default async function DeploymentTagsPage({ params }: { params: Params }) {
  const { id } = await params;
  await Promise.all([prefetchDeploymentFrame(id), prefetchTags()]);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <TagsEditor id={id} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
