import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { appRouter, createCaller } from "@/server/api/root";
import { createSessionContext } from "@/server/context";
import { requestIdFrom } from "@/server/request-id";
import { makeQueryClient } from "./query-client";

// Server components only: prefetch through the router in-process, then hand the cache to the client.

const createContext = cache(async () => createSessionContext(requestIdFrom(await headers())));

export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: createContext,
  router: appRouter,
  queryClient: getQueryClient,
});

/** Calls procedures directly (no cache), for server-side decisions such as redirects. */
export const caller = cache(async () => createCaller(await createContext()));

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
