import type { Metadata } from "next";
import { MembersView } from "@/components/settings/members/members-view";
import { RoleNotice } from "@/components/settings/role-notice";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const me = await loadMe();
  const isAdmin = me?.role === "admin";
  await getQueryClient().prefetchQuery(trpc.members.list.queryOptions());
  return (
    <div className="space-y-4">
      {!isAdmin && (
        <RoleNotice needs="admin" role={me?.role ?? "none"} what="add members or change roles" />
      )}
      <HydrateClient>
        <MembersView
          isAdmin={isAdmin}
          myUserId={me?.user.id ?? ""}
          myOrgRole={me?.org_role ?? "member"}
        />
      </HydrateClient>
    </div>
  );
}
