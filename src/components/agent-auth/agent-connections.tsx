"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Label } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { useTRPC } from "@/trpc/react";
import { ProviderChip } from "./provider-chip";

/** A deployment's Connections tab: which users' tokens this agent may use. */
export function AgentConnections({ deploymentId }: { deploymentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.agentAuth.connections.queryOptions({ deploymentId }));
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.agentAuth.connections.pathKey() });
  const disconnect = useMutation(
    trpc.agentAuth.disconnectAgent.mutationOptions({ onSuccess: refresh }),
  );
  return (
    <Card>
      <CardHeader
        title="Connections"
        description="The connected accounts this agent may use. Authenticate with this agent's id answers connection_required until the account is connected here."
      />
      <CardBody className="space-y-4">
        <ConnectOwnToken deploymentId={deploymentId} onDone={refresh} />
        {list.isPending ? (
          <div role="status" aria-label="Loading connections">
            <Skeleton className="h-10 w-full" />
          </div>
        ) : list.isError ? (
          <Alert>Could not load connections: {list.error.message}</Alert>
        ) : list.data.length === 0 ? (
          <EmptyState
            icon={Link2}
            title="No connections"
            description="Connect one of your accounts so this agent can act for you."
          />
        ) : (
          <Table aria-label="Agent connections">
            <thead>
              <tr>
                <Th>Provider</Th>
                <Th>Account</Th>
                <Th>Scopes</Th>
                <Th>Connected</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((c) => {
                const name = c.provider_account_label ?? "Unnamed account";
                return (
                  <Tr key={c.id}>
                    <Td>
                      <ProviderChip providerId={c.provider_id} />
                    </Td>
                    <Td>{name}</Td>
                    <Td className="font-mono text-xs">{c.scopes.join(" ") || "—"}</Td>
                    <Td className="text-zinc-600 dark:text-zinc-400">
                      <RelativeTime iso={c.created_at} />
                    </Td>
                    <Td className="text-right">
                      <ConfirmButton
                        size="sm"
                        label={`Disconnect ${name} (${c.provider_id}) from this agent`}
                        title="Disconnect this account from the agent?"
                        description="The token stays connected to you; this agent can no longer use it."
                        confirmLabel="Disconnect"
                        pending={disconnect.isPending}
                        onConfirm={(close) =>
                          disconnect.mutate(
                            { deploymentId, connectionId: c.id },
                            {
                              onSuccess: close,
                              onError: (error) => toast.error(error.message),
                            },
                          )
                        }
                      >
                        Disconnect
                      </ConfirmButton>
                    </Td>
                  </Tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </CardBody>
    </Card>
  );
}

function ConnectOwnToken({ deploymentId, onDone }: { deploymentId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const id = useId();
  const tokens = useQuery(trpc.agentAuth.tokens.queryOptions({}));
  const [tokenId, setTokenId] = useState("");
  const connect = useMutation(
    trpc.agentAuth.connectAgent.mutationOptions({
      onSuccess: () => (setTokenId(""), onDone(), toast.success("Connected")),
      onError: (error) => toast.error(`Could not connect: ${error.message}`),
    }),
  );
  if (!tokens.data?.length) return null;
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (tokenId) connect.mutate({ deploymentId, tokenId });
      }}
    >
      <div className="grid min-w-64 gap-1.5">
        <Label htmlFor={id}>One of your connected accounts</Label>
        <Select id={id} value={tokenId} onChange={(event) => setTokenId(event.target.value)}>
          <option value="">Choose an account…</option>
          {tokens.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.provider_id} · {t.provider_account_label ?? "Unnamed account"}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" disabled={!tokenId || connect.isPending}>
        Connect to this agent
      </Button>
    </form>
  );
}
