import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DeploymentFrame } from "@/components/deployment-detail/deployment-frame";
import { RevisionDetail } from "@/components/revisions/revision-detail";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { isUuid, loadDeployment, prefetchDeploymentFrame } from "../../load";

type Params = Promise<{ id: string; revisionId: string }>;

async function loadRevision(id: string, revisionId: string) {
  await loadDeployment(id);
  if (!isUuid(revisionId)) notFound();
  try {
    return await getQueryClient().fetchQuery(
      trpc.revisions.get.queryOptions({ deploymentId: id, revisionId }),
    );
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id, revisionId } = await params;
  const [{ deployment }, revision] = await Promise.all([
    loadDeployment(id),
    loadRevision(id, revisionId),
  ]);
  return { title: `Revision #${revision.number} · ${deployment.name}` };
}

export default async function RevisionPage({ params }: { params: Params }) {
  const { id, revisionId } = await params;
  await Promise.all([prefetchDeploymentFrame(id), loadRevision(id, revisionId)]);
  return (
    <HydrateClient>
      <DeploymentFrame id={id}>
        <RevisionDetail id={id} revisionId={revisionId} />
      </DeploymentFrame>
    </HydrateClient>
  );
}
