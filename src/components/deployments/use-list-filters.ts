"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { filtersFromParams, paramsFromFilters, type ListFilters } from "./list-params";

/**
 * The list's filters, read from and written to the URL. history.pushState keeps Next's router in
 * sync without a server round trip; each change is a history entry, so back/forward work.
 */
export function useListFilters() {
  const searchParams = useSearchParams();
  const filters = useMemo(() => filtersFromParams(searchParams), [searchParams]);
  const setFilters = useCallback(
    (patch: Partial<ListFilters>, opts: { replace?: boolean } = {}) => {
      // Any change other than paging starts again from the first page.
      const next = { ...filters, offset: 0, ...patch };
      const query = paramsFromFilters(next).toString();
      const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
      if (opts.replace) window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [filters],
  );
  return { filters, setFilters };
}
