import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";
import { apiFailure } from "./errors";

/** A 4xx answer will not change by asking again; network failures and 5xx are retried twice. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = apiFailure(error).status;
  return failureCount < 2 && !(status !== null && status >= 400 && status < 500);
}

/** One QueryClient per request on the server, one per browser tab: superjson across the hydration boundary. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      dehydrate: {
        serializeData: superjson.serialize,
        // Pending queries are streamed too, so a page can prefetch without awaiting.
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
