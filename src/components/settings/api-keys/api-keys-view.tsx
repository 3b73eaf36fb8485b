"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { ApiKey, CreatedApiKey } from "@/schemas/api-keys";
import { useTRPC } from "@/trpc/react";
import { roleLabels } from "../role-notice";
import { CreateKeyDialog, keyKindLabels } from "./create-key-dialog";
import { KeyCreatedDialog } from "./key-created-dialog";

export function ApiKeysView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: async (key) => {
        toast.success(`Revoked ${key.name}: it no longer works`);
        setRevoking(null);
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
      onError: (error) => toast.error(`Could not revoke: ${error.message}`),
    }),
  );

  let body;
  if (list.isPending) body = <Skeleton className="h-40 w-full" />;
  else if (list.isError) body = <Alert>Could not load API keys: {list.error.message}</Alert>;
  else if (list.data.length === 0)
    body = (
      <EmptyState
        icon={KeyRound}
        title="No API keys"
        description="Create a key to call the REST API from scripts and CI."
      />
    );
  else
    body = (
      <Table aria-label="API keys">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Prefix</Th>
            <Th>Kind</Th>
            <Th>Role</Th>
            <Th>Created</Th>
            <Th>Last used</Th>
            <Th>Status</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((k) => (
            <Tr key={k.id}>
              <Td className="font-medium">{k.name}</Td>
              <Td className="font-mono text-[13px]">{k.prefix}…</Td>
              <Td>{keyKindLabels[k.kind]}</Td>
              <Td>{roleLabels[k.role]}</Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={k.created_at} />
                {k.created_by && <span className="block text-xs">by {k.created_by.email}</span>}
              </Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                {k.last_used_at ? <RelativeTime iso={k.last_used_at} /> : "Never"}
              </Td>
              <Td>
                {k.revoked_at ? (
                  <Badge tone="red">
                    Revoked <RelativeTime iso={k.revoked_at} />
                  </Badge>
                ) : (
                  <Badge tone="green">Active</Badge>
                )}
              </Td>
              <Td className="text-right">
                {!k.revoked_at && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setRevoking(k)}
                    aria-label={`Revoke ${k.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    );

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-4">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Keys authenticate REST calls with <code className="font-mono text-xs">X-Api-Key</code>. A
          key is shown once, when it is created. A personal key never does more than its maker may
          now, and stops when they leave; a service key belongs to the workspace.
        </p>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden className="size-4" />
          Create key
        </Button>
      </div>
      {body}
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <KeyCreatedDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        variant="danger"
        pendingLabel="Revoking…"
        open={!!revoking}
        title="Revoke API key"
        description={
          <>
            Anything using <strong className="font-semibold">{revoking?.name}</strong> (
            <span className="font-mono">{revoking?.prefix}…</span>) gets 401 from now on. This
            cannot be undone.
          </>
        }
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onClose={() => setRevoking(null)}
      />
    </div>
  );
}
