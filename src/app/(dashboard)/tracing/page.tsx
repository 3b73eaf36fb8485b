import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { ProjectsView } from "@/components/tracing/projects-view";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

export const metadata: Metadata = { title: "Tracing projects" };

export default async function TracingProjectsPage() {
  await getQueryClient().prefetchQuery(trpc.tracing.projects.queryOptions());
  return (
    <>
      <PageHeader
        title="Tracing projects"
        description="Where agents' runs are recorded: one project per deployment, and any the tracing SDK names."
      />
      <HydrateClient>
        <ProjectsView />
      </HydrateClient>
    </>
  );
}
