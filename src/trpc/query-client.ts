import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import { apiStatus } from "./status";

/** A 4xx answer will not change by asking again; network failures and 5xx are retried twice. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = apiStatus(error);
  return failureCount < 2 && !(status !== null && status >= 400 && status < 500);
}

/** One QueryClient per request on the server, one per browser tab. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      dehydrate: {
        // Pending queries are streamed too, so a page can prefetch without awaiting.
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}
