"use client";

import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import { MAX_TRPC_BATCH } from "./limits";
import type { AppRouter } from "@/server/api/root";
import { makeQueryClient } from "./query-client";
import { registerQueryCache } from "./query-cache";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

let browserQueryClient: QueryClient | undefined;

function getQueryClient() {
  // The server renders each request with a fresh client; the browser keeps one for the tab.
  if (typeof window === "undefined") return makeQueryClient();
  if (!browserQueryClient) {
    const client = makeQueryClient();
    registerQueryCache(() => client.clear());
    browserQueryClient = client;
  }
  return browserQueryClient;
}

const makeTrpcClient = () =>
  createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: "/api/trpc", maxItems: MAX_TRPC_BATCH })],
  });
let browserTrpcClient: ReturnType<typeof makeTrpcClient> | undefined;

/**
 * The data layer for the subtree below it: the route segments whose pages read through tRPC
 * mount it in their layouts (the deployments list renders on the server and does not). Every
 * instance in a tab shares one QueryClient and one tRPC client, so the cache and the request
 * batching outlive navigation between segments.
 */
export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    typeof window === "undefined" ? makeTrpcClient() : (browserTrpcClient ??= makeTrpcClient()),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
