import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProjectTracesPage } from "@/components/tracing/project-traces";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { isUuid } from "../../deployments/[id]/load";

type Params = Promise<{ projectId: string }>;

/** The project (404 page when it is not in this workspace), cached for the request. */
async function loadProject(id: string) {
  if (!isUuid(id)) notFound();
  try {
    return await getQueryClient().fetchQuery(trpc.tracing.project.queryOptions({ id }));
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const project = await loadProject((await params).projectId);
  return { title: `Traces · ${project.name}` };
}

export default async function TracingProjectPage({ params }: { params: Params }) {
  const { projectId } = await params;
  await loadProject(projectId);
  return (
    <HydrateClient>
      <ProjectTracesPage projectId={projectId} />
    </HydrateClient>
  );
}
