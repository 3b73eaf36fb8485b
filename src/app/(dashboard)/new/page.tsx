import type { Metadata } from "next";
import { SourceChoices } from "@/components/create/source-choices";
import { PageHeader } from "@/components/shell/page-header";
import { getInfo } from "@/server/services/service-info";
import { loadMe } from "@/trpc/session";
import { ViewerRefusal } from "./viewer-refusal";

export const metadata: Metadata = { title: "New deployment" };

export default async function NewDeploymentPage() {
  const me = await loadMe();
  return (
    <>
      <PageHeader
        title="New deployment"
        description="Choose where the agent server comes from. Every source gets the same revisions, settings, secrets and logs."
      />
      {me?.role === "viewer" ? <ViewerRefusal /> : <SourceChoices mode={getInfo().mode} />}
    </>
  );
}
