"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Tags } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import type { TagKey } from "@/schemas/tags";
import { useTRPC } from "@/trpc/react";
import { NameForm } from "./name-form";
import { RenameDialog } from "./rename-dialog";
import { TagKeyCard } from "./tag-key-card";

/** The workspace's tag keys and their values: deployments are filtered and grouped by them. */
export function TagsView({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.tags.listKeys.queryOptions());
  const [pending, setPending] = useState<{ kind: "rename" | "delete"; key: TagKey } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tags.listKeys.queryKey() });
  const create = useMutation(trpc.tags.createKey.mutationOptions());
  const rename = useMutation(trpc.tags.renameKey.mutationOptions());
  const remove = useMutation(
    trpc.tags.deleteKey.mutationOptions({
      onSuccess: async () => {
        toast.success(`Deleted tag key ${pending?.key.key ?? ""}`);
        setPending(null);
        await refresh();
      },
      onError: (error) => toast.error(`Could not delete: ${error.message}`),
    }),
  );

  let body;
  if (keys.isPending) body = <Skeleton className="h-40 w-full" />;
  else if (keys.isError) body = <Alert>Could not load tags: {keys.error.message}</Alert>;
  else if (keys.data.length === 0)
    body = (
      <EmptyState
        icon={Tags}
        title="No tags"
        description="Tag keys (team, env…) and their values label deployments and filter the list."
      />
    );
  else
    body = (
      <div className="grid gap-4 md:grid-cols-2">
        {keys.data.map((key) => (
          <TagKeyCard
            key={key.id}
            tagKey={key}
            canEdit={canEdit}
            onRenameKey={() => setPending({ kind: "rename", key })}
            onDeleteKey={() => setPending({ kind: "delete", key })}
          />
        ))}
      </div>
    );

  return (
    <div className="space-y-4">
      {canEdit && (
        <Card>
          <CardBody>
            <NameForm
              id="new-tag-key"
              label="New tag key"
              submitLabel="Add key"
              pending={create.isPending}
              onSubmit={async (key) => {
                await create.mutateAsync({ key });
                toast.success(`Added tag key ${key}`);
                await refresh();
              }}
            />
          </CardBody>
        </Card>
      )}
      {body}
      <RenameDialog
        open={pending?.kind === "rename"}
        what="key"
        current={pending?.key.key ?? ""}
        pending={rename.isPending}
        onClose={() => setPending(null)}
        onRename={async (key) => {
          await rename.mutateAsync({ tagKeyId: pending!.key.id, key });
          toast.success(`Renamed to ${key}`);
          await refresh();
        }}
      />
      <ConfirmDialog
        open={pending?.kind === "delete"}
        title={`Delete tag key “${pending?.key.key ?? ""}”?`}
        description="Its values go too, and deployments that carry them lose them."
        confirmLabel="Delete key"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        variant="danger"
        onClose={() => setPending(null)}
        onConfirm={() => pending && remove.mutate({ tagKeyId: pending.key.id })}
      />
    </div>
  );
}
