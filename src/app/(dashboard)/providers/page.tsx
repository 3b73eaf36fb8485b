import type { Metadata } from "next";
import Link from "next/link";
import { ProvidersView } from "@/components/providers/providers-view";
import { ReadOnlyNotice } from "@/components/providers/read-only-notice";
import { PageHeader } from "@/components/shell/page-header";
import { buttonClass } from "@/components/ui/button";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { canChangeOrganization } from "@/components/settings/role-notice";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "OAuth providers" };

export default async function ProvidersPage() {
  const me = await loadMe();
  const canEdit = canChangeOrganization(me?.org_role);
  await getQueryClient().prefetchQuery(trpc.oauthProviders.list.queryOptions());
  return (
    <>
      <PageHeader
        title="OAuth providers"
        description="OAuth clients your organization's agents use to reach third-party services."
        actions={
          canEdit ? (
            <Link href="/providers/new" className={buttonClass()}>
              New provider
            </Link>
          ) : (
            <ReadOnlyNotice>
              Read-only: only organization owners and admins add or change providers.
            </ReadOnlyNotice>
          )
        }
      />
      <HydrateClient>
        <ProvidersView canEdit={canEdit} />
      </HydrateClient>
    </>
  );
}
