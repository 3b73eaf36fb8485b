import { TRPCError } from "@trpc/server";
import type { SessionMe } from "@/schemas/session";
import { getQueryClient, trpc } from "./server-calls";

/** The signed-in user with their workspaces, or null when they belong to none. */
export async function loadMe(): Promise<SessionMe | null> {
  try {
    return await getQueryClient().fetchQuery(trpc.session.me.queryOptions());
  } catch (error) {
    if (error instanceof TRPCError && error.code === "UNAUTHORIZED") return null;
    throw error;
  }
}
