import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ProviderForm } from "@/components/providers/provider-form";
import { PageHeader } from "@/components/shell/page-header";
import { canChangeOrganization } from "@/components/settings/role-notice";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "New OAuth provider" };

export default async function NewProviderPage() {
  const me = await loadMe();
  if (!canChangeOrganization(me?.org_role)) redirect("/providers");
  return (
    <>
      <PageHeader
        title="New OAuth provider"
        description="The rules on the right follow your choices as you fill the form."
      />
      <ProviderForm canEdit />
    </>
  );
}
