"use client";

import { useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, History } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCanChange, useDeployment } from "@/components/deployment-detail/use-deployment";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { revisionStatuses } from "@/schemas/deployment-values";
import { useTRPC } from "@/trpc/react";
import {
  REVISIONS_PAGE_SIZE,
  revisionFilters,
  revisionListInput,
  revisionSearch,
  type RevisionFilters,
} from "./revision-params";
import { isActiveRevision, REVISION_POLL_MS, revisionStatusLabels } from "./revision-status";
import { RevisionsTable } from "./revisions-table";

/** Newest first; polls while any shown revision is still in progress. */
export function RevisionsView({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const filters = revisionFilters(useSearchParams());
  const { deployment } = useDeployment(id);
  const canEdit = useCanChange(id) ?? false;
  const list = useQuery({
    ...trpc.revisions.list.queryOptions(revisionListInput(id, filters)),
    refetchInterval: (query) =>
      query.state.data?.resources.some((r) => isActiveRevision(r.status))
        ? REVISION_POLL_MS
        : false,
  });
  const setFilters = (patch: Partial<RevisionFilters>) =>
    router.replace(pathname + revisionSearch({ ...filters, offset: 0, ...patch }), {
      scroll: false,
    });
  const rows = list.data?.resources ?? [];
  const { offset } = filters;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <label htmlFor="revision-status" className="text-sm text-zinc-600 dark:text-zinc-400">
            Status
          </label>
          <Select
            id="revision-status"
            value={filters.status ?? ""}
            onChange={(e) =>
              setFilters({ status: (e.target.value || null) as RevisionFilters["status"] })
            }
          >
            <option value="">All statuses</option>
            {revisionStatuses.map((s) => (
              <option key={s} value={s}>
                {revisionStatusLabels[s]}
              </option>
            ))}
          </Select>
        </div>
        {list.isFetching && !list.isLoading && (
          <span className="text-xs text-zinc-500 dark:text-zinc-400" aria-hidden>
            Updating…
          </span>
        )}
      </div>
      {list.isLoading ? (
        <div role="status" aria-label="Loading revisions" className="space-y-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-11 w-full" />
          ))}
        </div>
      ) : list.isError ? (
        <div
          role="alert"
          className="flex items-center justify-between gap-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
        >
          Revisions could not be loaded: {list.error.message}
          <Button variant="secondary" size="sm" onClick={() => list.refetch()}>
            Try again
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <EmptyState
          icon={History}
          title={filters.status ? "No revisions with this status" : "No revisions yet"}
          description={
            filters.status
              ? "Choose another status, or show them all."
              : "A revision is cut when the deployment's source, secrets or resources change."
          }
          action={
            filters.status && (
              <Button variant="secondary" onClick={() => setFilters({ status: null })}>
                Show all statuses
              </Button>
            )
          }
        />
      ) : (
        <RevisionsTable
          rows={rows}
          latestId={deployment.latest_revision_id}
          activeId={deployment.active_revision_id}
          canEdit={canEdit}
        />
      )}
      {(offset > 0 || rows.length === REVISIONS_PAGE_SIZE) && (
        <nav
          aria-label="Pagination"
          className="flex items-center justify-between gap-3 text-sm text-zinc-600 dark:text-zinc-400"
        >
          <p>{rows.length ? `Showing ${offset + 1}–${offset + rows.length}` : "No rows"}</p>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={offset === 0}
              onClick={() =>
                setFilters({ ...filters, offset: Math.max(0, offset - REVISIONS_PAGE_SIZE) })
              }
            >
              <ChevronLeft aria-hidden className="size-4" />
              Newer
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={rows.length < REVISIONS_PAGE_SIZE}
              onClick={() => setFilters({ ...filters, offset: offset + REVISIONS_PAGE_SIZE })}
            >
              Older
              <ChevronRight aria-hidden className="size-4" />
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
