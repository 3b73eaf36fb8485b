"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { useTRPC } from "@/trpc/react";
import { DeploymentsTable } from "./deployments-table";
import { Filters } from "./filters";
import { hasFilters, listInput, noFilters } from "./list-params";
import { Pagination } from "./pagination";
import { useListFilters } from "./use-list-filters";
import { useDeploymentChanges } from "./use-deployment-changes";
import { useTagOptions } from "./use-tag-options";

// Rarely shown, so loaded when shown (at once when the first answer is empty).
const EmptyList = lazy(() => import("./empty-list").then((m) => ({ default: m.EmptyList })));

export function DeploymentsView() {
  const trpc = useTRPC();
  const { filters, setFilters } = useListFilters();
  const tags = useTagOptions();
  const queryClient = useQueryClient();
  const list = useQuery({
    ...trpc.deployments.list.queryOptions(listInput(filters)),
    placeholderData: keepPreviousData,
  });
  // Created, changed, deployed, deleted: the server says so and the list reads itself again.
  const live = useDeploymentChanges(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
  });
  const rows = list.data?.resources ?? [];
  const total = list.data?.total ?? 0;
  const filtered = hasFilters(filters);

  let body;
  if (list.isError) {
    body = (
      <div
        role="alert"
        className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
      >
        Could not load deployments: {list.error.message}
      </div>
    );
  } else if (list.data && rows.length === 0) {
    body = (
      <Suspense>
        <EmptyList
          filtered={filtered}
          firstPage={filters.offset === 0}
          onReset={() => setFilters(filtered ? noFilters : { offset: 0 })}
        />
      </Suspense>
    );
  } else {
    body = (
      <div
        className={list.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
        aria-busy={list.isFetching}
      >
        <DeploymentsTable
          rows={rows}
          tagsById={tags.byId}
          sort={filters.sort}
          onSort={(sort) => setFilters({ sort })}
        />
        <div className="mt-4">
          <Pagination
            filters={filters}
            shown={rows.length}
            total={total}
            live={live}
            hasNext={filters.offset + rows.length < total}
            setFilters={setFilters}
          />
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <Filters filters={filters} setFilters={setFilters} tags={tags} />
      {body}
    </div>
  );
}
