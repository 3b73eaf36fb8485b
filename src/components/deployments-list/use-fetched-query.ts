"use client";

import { useQueryClient, type FetchQueryOptions, type QueryKey } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";

/**
 * One query read through the QueryClient (its cache, staleTime, retries, one request in flight
 * per key), for the list's page: what it needs of useQuery without useQuery's QueryObserver,
 * about 3 KiB gzip that nothing else in the page's first load brings. It answers from the cache
 * at once (the server's prefetch, hydrated), reads again when the key changes and its data is
 * missing or stale, or on `refetch` (which also cancels a read in flight: its answer may predate
 * the change), and keeps showing the last answer while a new key loads. It does not follow the
 * cache as useQuery does: no refetch on window focus, or when other code invalidates the key.
 */
export function useFetchedQuery<T, E = Error, K extends QueryKey = QueryKey>(
  options: FetchQueryOptions<T, E, T, K>,
) {
  const client = useQueryClient();
  const defaulted = client.defaultQueryOptions(options);
  const hash = defaulted.queryHash;
  const cached = client.getQueryCache().build(client, defaulted).state.data;
  const [shown, setShown] = useState<{ hash: string; data: T | undefined }>({ hash, data: cached });
  const [error, setError] = useState<E | null>(null);
  const [fetching, setFetching] = useState(false);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const asked = useRef(0);

  const read = useCallback(
    (force: boolean) => {
      const options = latest.current;
      const id = ++asked.current;
      const current = () => id === asked.current;
      const defaulted = client.defaultQueryOptions(options);
      const answer = force
        ? client.getQueryCache().build(client, defaulted).fetch(defaulted, { cancelRefetch: true })
        : client.fetchQuery(options);
      // Fresh data comes from the cache without a request: nothing to wait for.
      setFetching(client.getQueryState(options.queryKey)?.fetchStatus === "fetching");
      setError(null);
      answer
        .then(
          (data) => current() && setShown({ hash: defaulted.queryHash, data }),
          (e: E) => current() && setError(e),
        )
        .finally(() => current() && setFetching(false));
    },
    [client],
  );
  useEffect(() => read(false), [read, hash]);

  const data = cached ?? shown.data;
  return {
    data,
    error,
    isFetching: fetching,
    /** The last key's answer, shown while this key's loads. */
    isPlaceholderData: cached === undefined && data !== undefined && shown.hash !== hash,
    refetch: useCallback(() => read(true), [read]),
  };
}
