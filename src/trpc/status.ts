import { TRPCClientError } from "@trpc/client";

// Apart from errors.ts (which words messages for forms) so that every page's query client,
// which only needs the status to decide on a retry, does not load the field words.

/** The HTTP status a failed tRPC call answered with; null when it got no answer. */
export function apiStatus(error: unknown): number | null {
  if (!(error instanceof TRPCClientError)) return null;
  return (error.data as { httpStatus?: number } | undefined)?.httpStatus ?? null;
}
