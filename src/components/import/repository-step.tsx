"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { FolderGit2, Search, SearchX } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import type { Repository } from "@/schemas/codehost-integrations";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import { ChoiceList } from "./choice-list";

const SHOWN = 50;

/** Step 2: the integration's repositories, searched by owner/name in the browser. */
export function RepositoryStep({
  integrationId,
  selected,
  onSelect,
}: {
  integrationId: string;
  selected: Repository | null;
  onSelect: (repo: Repository) => void;
}) {
  const trpc = useTRPC();
  const repos = useQuery({
    ...trpc.codehostIntegrations.listRepositories.queryOptions({ integrationId }),
    retry: false,
  });
  const [search, setSearch] = useState("");
  const matches = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (repos.data ?? []).filter((r) => `${r.owner}/${r.name}`.toLowerCase().includes(q));
  }, [repos.data, search]);

  if (repos.isPending) {
    return (
      <div role="status" aria-label="Loading repositories" className="space-y-2">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (repos.isError) {
    const failed = apiFailure(repos.error);
    return (
      <Alert>
        <p className="font-medium">
          {failed.status === 502
            ? "The code host refused or failed:"
            : "Could not load repositories:"}
        </p>
        <p className="mt-1">{failed.message}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => repos.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (repos.data.length === 0) {
    return (
      <EmptyState
        icon={FolderGit2}
        title="No repositories"
        description="This integration's token sees no repositories. Grant it access on the code host, or choose another integration."
      />
    );
  }
  const shown = matches.slice(0, SHOWN);
  return (
    <div className="space-y-4">
      <div className="relative">
        <label htmlFor="repo-search" className="sr-only">
          Search repositories
        </label>
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400"
        />
        <Input
          id="repo-search"
          type="search"
          placeholder="Search by owner or name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="pl-9"
        />
      </div>
      <p aria-live="polite" className="text-xs text-zinc-500 dark:text-zinc-400">
        {matches.length === repos.data.length
          ? `${repos.data.length} repositories`
          : `${matches.length} of ${repos.data.length} repositories match`}
        {matches.length > SHOWN && ` — showing the first ${SHOWN}, refine the search`}
      </p>
      {shown.length === 0 ? (
        <EmptyState
          icon={SearchX}
          title="No repositories match"
          description={`Nothing matches "${search.trim()}". Try part of the owner or the name.`}
        />
      ) : (
        <ChoiceList
          legend="Repository"
          hideLegend
          name="repository"
          value={selected ? String(selected.id) : null}
          onChange={(id) => onSelect(shown.find((r) => String(r.id) === id)!)}
          options={shown.map((r) => ({
            value: String(r.id),
            label: `${r.owner}/${r.name}`,
            detail: `Default branch ${r.default_branch}`,
            icon: FolderGit2,
          }))}
        />
      )}
    </div>
  );
}
