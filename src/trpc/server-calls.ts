import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache } from "react";
import { appRouter, createCaller } from "@/server/api/root";
import { createSessionContext } from "@/server/context";
import { requestIdFrom } from "@/server/request-id";
import { makeQueryClient } from "./query-client";

// Server components only: procedures called in-process. Kept apart from HydrateClient (server.tsx),
// whose HydrationBoundary is a client component: importing it would put TanStack Query's
// hydration code in the first load of pages that hand no cache to the browser.

const createContext = cache(async () => createSessionContext(requestIdFrom(await headers())));

export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: createContext,
  router: appRouter,
  queryClient: getQueryClient,
});

/** Calls procedures directly (no cache), for server-side decisions such as redirects. */
export const caller = cache(async () => createCaller(await createContext()));
