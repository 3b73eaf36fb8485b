import type { Metadata } from "next";
import { RoleNotice } from "@/components/settings/role-notice";
import { TagsView } from "@/components/settings/tags/tags-view";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Tags" };

export default async function TagsPage() {
  const me = await loadMe();
  const canEdit = me?.role === "admin" || me?.role === "editor";
  await getQueryClient().prefetchQuery(trpc.tags.listKeys.queryOptions());
  return (
    <div className="space-y-4">
      {!canEdit && <RoleNotice needs="editor" role={me?.role ?? "none"} what="change tags" />}
      <HydrateClient>
        <TagsView canEdit={canEdit} />
      </HydrateClient>
    </div>
  );
}
