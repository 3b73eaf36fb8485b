import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProviderChip } from "@/components/agent-auth/provider-chip";
import { ProviderConnections } from "@/components/agent-auth/provider-connections";
import { DeleteProvider } from "@/components/providers/delete-provider";
import { ProviderForm } from "@/components/providers/provider-form";
import { ReadOnlyNotice } from "@/components/providers/read-only-notice";
import { PageHeader } from "@/components/shell/page-header";
import { caller } from "@/trpc/server";
import { canChangeOrganization } from "@/components/settings/role-notice";
import { loadMe } from "@/trpc/session";

type Params = Promise<{ providerId: string }>;

async function loadProvider(providerId: string) {
  try {
    return await (await caller()).oauthProviders.get({ providerId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST"))
      notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: (await loadProvider((await params).providerId)).name };
}

export default async function ProviderPage({ params }: { params: Params }) {
  const provider = await loadProvider((await params).providerId);
  const canEdit = canChangeOrganization((await loadMe())?.org_role);
  return (
    <>
      <PageHeader
        title={provider.name}
        description={<ProviderChip providerId={provider.provider_id} name={provider.name} />}
        actions={
          canEdit ? (
            <DeleteProvider providerId={provider.provider_id} name={provider.name} />
          ) : (
            <ReadOnlyNotice>
              Read-only: only organization owners and admins change providers.
            </ReadOnlyNotice>
          )
        }
      />
      <ProviderConnections providerId={provider.provider_id} name={provider.name} />
      <ProviderForm provider={provider} canEdit={canEdit} key={provider.updated_at} />
    </>
  );
}
