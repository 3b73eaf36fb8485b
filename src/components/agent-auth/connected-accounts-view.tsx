"use client";

import { useQuery } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { TokensTable } from "./tokens-table";

/** Every account the signed-in user connected, across providers. */
export function ConnectedAccountsView() {
  const trpc = useTRPC();
  const tokens = useQuery(trpc.agentAuth.tokens.queryOptions({}));
  if (tokens.isPending) {
    return (
      <div role="status" aria-label="Loading connected accounts" className="space-y-2">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (tokens.isError)
    return <Alert>Could not load connected accounts: {tokens.error.message}</Alert>;
  if (tokens.data.length === 0) {
    return (
      <EmptyState
        icon={Link2}
        title="No connected accounts yet"
        description="Open an OAuth provider and connect your account there, so agents can act for you."
        action={
          <Link href="/providers" className={buttonClass()}>
            OAuth providers
          </Link>
        }
      />
    );
  }
  return <TokensTable tokens={tokens.data} showProvider />;
}
