"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { ScrollText } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { IdChip } from "@/components/ui/id-chip";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { AuditEvent } from "@/schemas/audit";
import { useTRPC } from "@/trpc/react";
import {
  AUDIT_PAGE,
  auditActionLabel,
  auditActions,
  auditFilterOf,
  targetTypeLabel,
} from "./audit-actions";
import { AuditChanges } from "./audit-changes";
import { integrationHref } from "../integrations/integration-link";

/** Where a target's page is, when it has one. */
/** An event as the dashboard receives it: JSON leaves the free-form `data` optional. */
type AuditRow = Omit<AuditEvent, "data"> & { data?: unknown };

const hrefOf = (e: AuditRow): string | undefined =>
  e.target_type === "deployment" && e.action !== "deployment.delete"
    ? `/deployments/${e.target_id}`
    : e.target_type === "codehost_integration"
      ? integrationHref(e.target_id)
      : undefined;

function Actor({ event: e }: { event: AuditRow }) {
  if (e.actor_api_key_id)
    return (
      <span>
        API key{" "}
        <span className="font-medium">{e.actor_api_key_name ?? e.actor_api_key_prefix}</span>
      </span>
    );
  if (e.actor_email) return <span>{e.actor_email}</span>;
  return <span className="text-zinc-500 dark:text-zinc-400">system</span>;
}

function Target({ event: e }: { event: AuditRow }) {
  const href = hrefOf(e);
  return (
    <div className="space-y-1">
      <span className="block text-xs text-zinc-500 dark:text-zinc-400">
        {targetTypeLabel(e.target_type)}
      </span>
      {e.target_name &&
        (href ? (
          <Link href={href} className="font-medium underline underline-offset-2">
            {e.target_name}
          </Link>
        ) : (
          <span className="font-medium">{e.target_name}</span>
        ))}
      <div>
        <IdChip id={e.target_id} label={targetTypeLabel(e.target_type)} href={href} />
      </div>
    </div>
  );
}

export function AuditView() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  // The filter and the page live in the URL: shareable, and kept on reload and Back.
  const { action, offset } = auditFilterOf(Object.fromEntries(search.entries()));
  const navigate = (next: { action?: string; offset?: number }) => {
    const params = new URLSearchParams();
    const a = next.action ?? action;
    const o = next.offset ?? offset;
    if (a) params.set("action", a);
    if (o > 0) params.set("offset", String(o));
    const query = params.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  // One extra row says whether a next page exists.
  const list = useQuery({
    ...trpc.audit.list.queryOptions({ limit: AUDIT_PAGE + 1, offset, action: action || undefined }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.resources.slice(0, AUDIT_PAGE) ?? [];
  const hasNext = (list.data?.resources.length ?? 0) > AUDIT_PAGE;

  let body;
  if (list.isPending) body = <Skeleton className="h-64 w-full" />;
  else if (list.isError) body = <Alert>Could not load the audit log: {list.error.message}</Alert>;
  else if (rows.length === 0)
    body = (
      <EmptyState
        icon={ScrollText}
        title={action ? `No “${auditActionLabel(action)}” events` : "Nothing recorded yet"}
        description={
          action
            ? "Choose another action, or all actions."
            : "Changes to this workspace appear here."
        }
      />
    );
  else
    body = (
      <div
        aria-busy={list.isFetching}
        className={list.isPlaceholderData ? "opacity-60" : undefined}
      >
        <Table aria-label="Audit log">
          <thead>
            <tr>
              <Th>When</Th>
              <Th>Action</Th>
              <Th>Target</Th>
              <Th>Actor</Th>
              <Th>Changes</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <Tr key={e.id}>
                <Td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                  <RelativeTime iso={e.created_at} />
                </Td>
                <Td>
                  <Badge tone="blue">{auditActionLabel(e.action)}</Badge>
                </Td>
                <Td>
                  <Target event={e} />
                </Td>
                <Td>
                  <Actor event={e} />
                </Td>
                <Td>
                  <AuditChanges event={e} />
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </div>
    );

  return (
    <div className="space-y-4">
      <div className="flex items-end gap-3">
        <div className="min-w-0 max-w-full space-y-1.5">
          <label
            htmlFor="audit-action"
            className="block text-sm font-medium text-zinc-700 dark:text-zinc-300"
          >
            Action
          </label>
          <Select
            id="audit-action"
            className="max-w-full"
            value={action}
            onChange={(e) => navigate({ action: e.target.value, offset: 0 })}
          >
            <option value="">All actions</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {auditActionLabel(a)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {body}
      {rows.length > 0 && (
        <nav aria-label="Audit log pages" className="flex items-center justify-between text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">
            Showing {offset + 1}–{offset + rows.length}
          </span>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={offset === 0}
              onClick={() => navigate({ offset: Math.max(offset - AUDIT_PAGE, 0) })}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={!hasNext}
              onClick={() => navigate({ offset: offset + AUDIT_PAGE })}
            >
              Next
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
