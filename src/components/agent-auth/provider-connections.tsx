"use client";

import { useQuery } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { ConnectAccount } from "./connect-button";
import { TokensTable } from "./tokens-table";

/** A provider's page: the signed-in user's accounts at it, and a way to connect one. */
export function ProviderConnections({ providerId, name }: { providerId: string; name: string }) {
  const trpc = useTRPC();
  const tokens = useQuery(trpc.agentAuth.tokens.queryOptions({ providerId }));
  return (
    <Card className="mt-6">
      <span id="connect" className="block scroll-mt-6" aria-hidden />
      <CardHeader
        title="Your connected accounts"
        description={`Agents act for you at ${name} with these tokens. Tokens are stored encrypted and never shown.`}
      />
      <CardBody className="space-y-4">
        <ConnectAccount providerId={providerId} name={name} />
        {tokens.isPending ? (
          <div role="status" aria-label="Loading connected accounts" className="space-y-2">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : tokens.isError ? (
          <Alert>Could not load your connected accounts: {tokens.error.message}</Alert>
        ) : tokens.data.length === 0 ? (
          <EmptyState
            icon={Link2}
            title="No account connected"
            description={`Connect your ${name} account to let agents act for you there.`}
          />
        ) : (
          <TokensTable tokens={tokens.data} showProvider={false} />
        )}
      </CardBody>
    </Card>
  );
}
