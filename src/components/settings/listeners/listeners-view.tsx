"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, RadioTower } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import type { CreatedListener, Listener } from "@/schemas/listeners";
import { useTRPC } from "@/trpc/react";
import { ListenerFormDialog } from "./listener-form-dialog";
import { ListenerTokenDialog } from "./token-dialog";

export function ListenersView({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.listeners.list.queryOptions({}));
  const [form, setForm] = useState<{ listener: Listener | null } | null>(null);
  const [created, setCreated] = useState<CreatedListener | null>(null);
  const [deleting, setDeleting] = useState<Listener | null>(null);
  const remove = useMutation(
    trpc.listeners.delete.mutationOptions({
      onSuccess: async () => {
        toast.success(`Deleted ${deleting?.compute_id}: its token no longer works`);
        setDeleting(null);
        await queryClient.invalidateQueries({ queryKey: trpc.listeners.list.queryKey() });
      },
      onError: (error) => toast.error(`Could not delete: ${error.message}`),
    }),
  );

  let body;
  if (list.isPending) body = <Skeleton className="h-40 w-full" />;
  else if (list.isError) body = <Alert>Could not load listeners: {list.error.message}</Alert>;
  else if (list.data.resources.length === 0)
    body = (
      <EmptyState
        icon={RadioTower}
        title="No listeners"
        description="Create a listener, run it in your cluster, and assign deployments to it."
      />
    );
  else
    body = (
      <Table aria-label="Listeners">
        <thead>
          <tr>
            <Th>Cluster</Th>
            <Th>Namespaces</Th>
            <Th>Version</Th>
            <Th>Status</Th>
            <Th>Last seen</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {list.data.resources.map((l) => (
            <Tr key={l.id}>
              <Td className="font-medium">{l.compute_id}</Td>
              <Td className="font-mono text-[13px]">
                {l.compute_config.k8s_namespaces.join(", ")}
              </Td>
              <Td>{l.version ?? "—"}</Td>
              <Td>
                <Badge tone={l.status === "online" ? "green" : "zinc"}>
                  {l.status === "online" ? "Online" : "Offline"}
                </Badge>
              </Td>
              <Td className="text-zinc-600 dark:text-zinc-400">
                {l.last_seen_at ? <RelativeTime iso={l.last_seen_at} /> : "Never"}
              </Td>
              <Td className="text-right whitespace-nowrap">
                {canManage && (
                  <>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setForm({ listener: l })}
                      aria-label={`Edit ${l.compute_id}`}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setDeleting(l)}
                      aria-label={`Delete ${l.compute_id}`}
                    >
                      Delete
                    </Button>
                  </>
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
          Listeners run in your clusters and apply the deployments assigned to them. A token is
          shown once, when the listener is created.
        </p>
        {canManage && (
          <Button onClick={() => setForm({ listener: null })}>
            <Plus aria-hidden className="size-4" />
            Create listener
          </Button>
        )}
      </div>
      {body}
      {form && (
        <ListenerFormDialog
          key={form.listener?.id ?? "new"}
          open
          listener={form.listener}
          onClose={() => setForm(null)}
          onCreated={(listener) => {
            setForm(null);
            setCreated(listener);
          }}
        />
      )}
      <ListenerTokenDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        variant="danger"
        pendingLabel="Deleting…"
        open={!!deleting}
        title="Delete listener"
        description={
          <>
            <strong className="font-semibold">{deleting?.compute_id}</strong> stops receiving work
            and its token stops working. A listener that deployments use cannot be deleted.
          </>
        }
        confirmLabel="Delete listener"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ listenerId: deleting.id })}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
