"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { OAuthTokenView } from "@/schemas/agent-auth";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { useTRPC } from "@/trpc/react";
import { ProviderChip } from "./provider-chip";

/** The signed-in user's connected accounts: label, default, scopes, expiry; disconnect asks first. */
export function TokensTable({
  tokens,
  showProvider,
}: {
  tokens: OAuthTokenView[];
  showProvider: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.agentAuth.tokens.pathKey() });
  const disconnect = useMutation(trpc.agentAuth.disconnect.mutationOptions({ onSuccess: refresh }));
  const makeDefault = useMutation(
    trpc.agentAuth.setDefault.mutationOptions({ onSuccess: refresh }),
  );
  return (
    <Table aria-label="Connected accounts">
      <thead>
        <tr>
          {showProvider && <Th>Provider</Th>}
          <Th>Account</Th>
          <Th>Scopes</Th>
          <Th>Expires</Th>
          <Th>Connected</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((t) => {
          const name = t.provider_account_label ?? "Unnamed account";
          return (
            <Tr key={t.id}>
              {showProvider && (
                <Td>
                  <ProviderChip providerId={t.provider_id} />
                </Td>
              )}
              <Td>
                <span className="font-medium">{name}</span>{" "}
                {t.is_default && <Badge tone="green">Default</Badge>}
              </Td>
              <Td className="font-mono text-xs">{t.scopes.join(" ") || "—"}</Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                {t.expires_at ? <RelativeTime iso={t.expires_at} /> : "Does not expire"}
              </Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={t.created_at} />
              </Td>
              <Td className="text-right whitespace-nowrap">
                {!t.is_default && (
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={makeDefault.isPending}
                    onClick={() => makeDefault.mutate({ tokenId: t.id })}
                    aria-label={`Make ${name} the default`}
                  >
                    Make default
                  </Button>
                )}
                <ConfirmButton
                  size="sm"
                  label={`Disconnect ${name} (${t.provider_id})`}
                  title={`Disconnect ${name}?`}
                  description="The token is revoked at the provider and deleted. Agents using it lose access until you connect again."
                  confirmLabel="Disconnect"
                  pendingLabel="Disconnecting…"
                  pending={disconnect.isPending}
                  onConfirm={(close) =>
                    disconnect.mutate(
                      { tokenId: t.id },
                      {
                        onSuccess: () => (close(), toast.success(`Disconnected ${name}`)),
                        onError: (error) => toast.error(`Could not disconnect: ${error.message}`),
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
  );
}
