"use client";

import { useRouter, useSearchParams } from "next/navigation";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useTransition,
} from "react";
import { filtersFromParams, paramsFromFilters, type ListFilters } from "./list-params";

/**
 * The list's filters, read from and written to the URL. The server renders the rows for the
 * address, so a change navigates (a history entry: back/forward work) inside a transition: the
 * current rows stay, dimmed while `pending`, until the new ones arrive. A local copy answers at
 * once, so controls never flicker back while the URL catches up.
 */
export function useListFilters() {
  const router = useRouter();
  const searchParams = useSearchParams();
  const fromUrl = useMemo(() => filtersFromParams(searchParams), [searchParams]);
  const [filters, setLocal] = useState(fromUrl);
  useEffect(() => setLocal(fromUrl), [fromUrl]);
  const [pending, startTransition] = useTransition();

  const setFilters = useCallback(
    (patch: Partial<ListFilters>) => {
      // Any change other than paging starts again from the first page.
      const next = { ...filters, offset: 0, ...patch };
      setLocal(next);
      const query = paramsFromFilters(next).toString();
      const href = `${window.location.pathname}${query ? `?${query}` : ""}`;
      startTransition(() => router.push(href, { scroll: false }));
    },
    [filters, router],
  );
  return { filters, setFilters, pending };
}

export type ListFiltersState = ReturnType<typeof useListFilters>;

/** The view's filters, for controls drawn inside the server-rendered rows (the sort headers). */
export const ListFiltersContext = createContext<ListFiltersState | null>(null);

export function useListFiltersContext(): ListFiltersState {
  const state = useContext(ListFiltersContext);
  if (!state) throw new Error("useListFiltersContext outside DeploymentsView");
  return state;
}
