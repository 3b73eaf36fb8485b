"use client";

import { useRouter } from "next/navigation";
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useTransition,
  type ReactNode,
} from "react";
import { Filters } from "./filters";
import { hasFilters, noFilters } from "./list-params";
import { Pagination } from "./pagination";
import { tagOptions, type TagGroup } from "./tag-groups";
import { useDeploymentChanges } from "./use-deployment-changes";
import { ListFiltersContext, useListFilters } from "./use-list-filters";

// Rarely shown, so loaded when shown (at once when the first answer is empty).
const EmptyList = lazy(() => import("./empty-list").then((m) => ({ default: m.EmptyList })));

/** Back on the tab after this long, the rows are read again (the other pages' staleTime). */
const STALE_MS = 30_000;
/** A failed read is tried again this many times, after 1 s, then 2 s (the query client's retry). */
const RETRIES = 2;

export interface ListFailure {
  message: string;
  /** Whether reading again may help (not after a 4xx). */
  retry: boolean;
}

/**
 * The list's controls around its rows (`children`, rendered on the server for the filters in
 * the URL). Filters, sorting and paging change the URL, and the server renders the rows again;
 * a live change (and each (re)connection of the change stream), or coming back to the tab after
 * a while, refreshes the route. The page's first load carries no data-fetching code.
 */
export function DeploymentsView({
  tags: groups,
  shown,
  total,
  error,
  children,
}: {
  tags: TagGroup[];
  /** How many rows the server rendered, and how many match across pages. */
  shown: number;
  total: number;
  /** Why the server could not read the list, if it could not. */
  error: ListFailure | null;
  children: ReactNode;
}) {
  const list = useListFilters();
  const { filters, setFilters } = list;
  const tags = useMemo(() => tagOptions(groups), [groups]);
  const router = useRouter();
  const [refreshing, startRefresh] = useTransition();
  const refresh = useCallback(() => startRefresh(() => router.refresh()), [router]);
  // Created, changed, deployed, deleted: the server says so and the rows are rendered again.
  const live = useDeploymentChanges(refresh);

  const renderedAt = useRef(0);
  useEffect(() => {
    renderedAt.current = Date.now();
  }, [children]);
  useEffect(() => {
    const onShown = () => {
      if (document.visibilityState === "visible" && Date.now() - renderedAt.current > STALE_MS)
        refresh();
    };
    document.addEventListener("visibilitychange", onShown);
    return () => document.removeEventListener("visibilitychange", onShown);
  }, [refresh]);

  const retries = useRef(0);
  useEffect(() => {
    if (!error) retries.current = 0;
    if (!error?.retry || retries.current >= RETRIES) return;
    const timer = setTimeout(
      () => {
        retries.current++;
        refresh();
      },
      1000 * 2 ** retries.current,
    );
    return () => clearTimeout(timer);
  }, [error, refresh]);

  const filtered = hasFilters(filters);
  let body;
  if (error) {
    body = (
      <div
        role="alert"
        className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
      >
        Could not load deployments: {error.message}
      </div>
    );
  } else if (shown === 0) {
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
        className={list.pending ? "opacity-60 transition-opacity" : undefined}
        aria-busy={list.pending || refreshing}
      >
        {children}
        <div className="mt-4">
          <Pagination
            filters={filters}
            shown={shown}
            total={total}
            live={live}
            hasNext={filters.offset + shown < total}
            setFilters={setFilters}
          />
        </div>
      </div>
    );
  }

  return (
    <ListFiltersContext value={list}>
      <div className="space-y-5">
        <Filters filters={filters} setFilters={setFilters} tags={tags} />
        {body}
      </div>
    </ListFiltersContext>
  );
}
