import type { Metadata } from "next";
import { AUDIT_PAGE, auditFilterOf } from "@/components/settings/audit/audit-actions";
import { AuditView } from "@/components/settings/audit/audit-view";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { action, offset } = auditFilterOf(await searchParams);
  await getQueryClient().prefetchQuery(
    trpc.audit.list.queryOptions({ limit: AUDIT_PAGE + 1, offset, action: action || undefined }),
  );
  return (
    <HydrateClient>
      <AuditView />
    </HydrateClient>
  );
}
