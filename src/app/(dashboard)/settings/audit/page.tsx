import type { Metadata } from "next";
import { AUDIT_PAGE } from "@/components/settings/audit/audit-actions";
import { AuditView } from "@/components/settings/audit/audit-view";
import { getQueryClient, HydrateClient, trpc } from "@/trpc/server";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  await getQueryClient().prefetchQuery(
    trpc.audit.list.queryOptions({ limit: AUDIT_PAGE + 1, offset: 0 }),
  );
  return (
    <HydrateClient>
      <AuditView />
    </HydrateClient>
  );
}
