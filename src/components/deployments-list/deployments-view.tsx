"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { FolderGit2Icon, SearchXIcon } from "@/components/ui/icons";
import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { useTRPC } from "@/trpc/react";
import { DeploymentsTable } from "./deployments-table";
import { Filters } from "./filters";
import { hasFilters, listInput, type ListFilters } from "./list-params";
import { Pagination } from "./pagination";
import { useListFilters } from "./use-list-filters";
import { useDeploymentChanges } from "./use-deployment-changes";
import { useTagOptions } from "./use-tag-options";

const clearedFilters: Partial<ListFilters> = {
  name_contains: "",
  status: [],
  tag_value_ids: [],
  deployment_type: null,
  remote_reconciled: null,
  previews: null,
  image_version: "",
};

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
  } else if (list.data && rows.length === 0 && !filtered && filters.offset === 0) {
    body = (
      <EmptyState
        icon={FolderGit2Icon}
        title="No deployments yet"
        description="Import a repository to create your first deployment. Each change cuts a revision that Hangar deploys to the configured cluster."
        action={
          <Link href="/import" className={buttonClass()}>
            Import a repository
          </Link>
        }
      />
    );
  } else if (list.data && rows.length === 0) {
    body = (
      <EmptyState
        icon={SearchXIcon}
        title={filtered ? "No deployments match these filters" : "No deployments on this page"}
        description={
          filtered ? "Try a different search or remove a filter." : "Go back to the first page."
        }
        action={
          <Button
            variant="secondary"
            onClick={() => setFilters(filtered ? clearedFilters : { offset: 0 })}
          >
            {filtered ? "Clear filters" : "First page"}
          </Button>
        }
      />
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
