"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { ScrollText } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { useTRPC } from "@/trpc/react";
import { AUDIT_PAGE, auditActions } from "./audit-actions";

export function AuditView() {
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const [offset, setOffset] = useState(0);
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
        title={action ? `No ${action} events` : "Nothing recorded yet"}
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
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <Tr key={e.id}>
                <Td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                  <RelativeTime iso={e.created_at} />
                </Td>
                <Td>
                  <Badge tone="blue">{e.action}</Badge>
                </Td>
                <Td>
                  <span className="block text-xs text-zinc-500 dark:text-zinc-400">
                    {e.target_type}
                  </span>
                  <span className="font-mono text-xs [overflow-wrap:anywhere]">{e.target_id}</span>
                </Td>
                <Td>
                  {e.actor_email ??
                    (e.actor_api_key_prefix ? (
                      <span className="font-mono text-[13px]">key {e.actor_api_key_prefix}…</span>
                    ) : (
                      <span className="text-zinc-500 dark:text-zinc-400">system</span>
                    ))}
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
        <div className="space-y-1.5">
          <label
            htmlFor="audit-action"
            className="block text-sm font-medium text-zinc-700 dark:text-zinc-300"
          >
            Action
          </label>
          <Select
            id="audit-action"
            value={action}
            onChange={(e) => {
              setAction(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">All actions</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
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
              onClick={() => setOffset(Math.max(offset - AUDIT_PAGE, 0))}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={!hasNext}
              onClick={() => setOffset(offset + AUDIT_PAGE)}
            >
              Next
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
