"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { filtersFromParams, paramsFromFilters, type ListFilters } from "./list-params";

/**
 * The list's filters, read from and written to the URL. history.pushState keeps Next's router in
 * sync without a server round trip; each change is a history entry, so back/forward work. A local
 * copy answers at once, so controls never flicker back while the URL catches up.
 */
export function useListFilters() {
  const searchParams = useSearchParams();
  const fromUrl = useMemo(() => filtersFromParams(searchParams), [searchParams]);
  const [filters, setLocal] = useState(fromUrl);
  useEffect(() => setLocal(fromUrl), [fromUrl]);

  const setFilters = useCallback(
    (patch: Partial<ListFilters>) => {
      // Any change other than paging starts again from the first page.
      const next = { ...filters, offset: 0, ...patch };
      setLocal(next);
      const query = paramsFromFilters(next).toString();
      window.history.pushState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
    },
    [filters],
  );
  return { filters, setFilters };
}
