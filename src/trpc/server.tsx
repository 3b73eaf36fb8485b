import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { getQueryClient } from "./server-calls";

// Server components only: prefetch through the router in-process (server-calls.ts), then hand the
// cache to the client.

export { caller, getQueryClient, trpc } from "./server-calls";

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
