import { Lock } from "lucide-react";
import type { Metadata } from "next";
import { ImportWizard } from "@/components/import/import-wizard";
import { PageHeader } from "@/components/shell/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Import a repository" };

export default async function ImportPage() {
  const me = await loadMe();
  const header = (
    <PageHeader
      title="Import a repository"
      description="Create a deployment from a repository on your code host: each change cuts a revision that Hangar builds into an image (HANGAR_BUILDER) and deploys to the configured cluster (with either missing, that part is a dry run)."
    />
  );
  if (me?.role === "viewer") {
    return (
      <>
        {header}
        <EmptyState
          icon={Lock}
          title="Viewers cannot import"
          description="Importing creates a deployment, which needs the editor or admin role. Ask an admin of this workspace to change your role."
        />
      </>
    );
  }
  await getQueryClient().prefetchQuery(trpc.codehostIntegrations.list.queryOptions());
  return (
    <>
      {header}
      <HydrateClient>
        <ImportWizard />
      </HydrateClient>
    </>
  );
}
