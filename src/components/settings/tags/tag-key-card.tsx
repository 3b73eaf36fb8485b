"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import type { TagKey, TagValue } from "@/schemas/tags";
import { useTRPC } from "@/trpc/react";
import { NameForm } from "./name-form";
import { RenameDialog } from "./rename-dialog";

type Pending = { kind: "rename" | "delete"; value: TagValue } | null;

/** One tag key: its values, each renamed or deleted here, and a field to add one. */
export function TagKeyCard({
  tagKey,
  canEdit,
  onRenameKey,
  onDeleteKey,
}: {
  tagKey: TagKey;
  canEdit: boolean;
  onRenameKey: () => void;
  onDeleteKey: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const values = useQuery(trpc.tags.listValues.queryOptions({ tagKeyId: tagKey.id }));
  const [pending, setPending] = useState<Pending>(null);
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: trpc.tags.listValues.queryKey({ tagKeyId: tagKey.id }),
    });
  const onDone = (message: string) => async () => {
    toast.success(message);
    await refresh();
  };
  const create = useMutation(trpc.tags.createValue.mutationOptions());
  const rename = useMutation(trpc.tags.renameValue.mutationOptions());
  const remove = useMutation(
    trpc.tags.deleteValue.mutationOptions({
      onSuccess: async () => {
        setPending(null);
        await onDone("Tag value deleted")();
      },
      onError: (error) => toast.error(`Could not delete: ${error.message}`),
    }),
  );

  return (
    <Card>
      <CardHeader
        title={tagKey.key}
        description="Tag key"
        actions={
          canEdit && (
            <div className="flex shrink-0 gap-2">
              <Button
                size="sm"
                variant="secondary"
                onClick={onRenameKey}
                aria-label={`Rename key ${tagKey.key}`}
              >
                Rename
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={onDeleteKey}
                aria-label={`Delete key ${tagKey.key}`}
              >
                Delete
              </Button>
            </div>
          )
        }
      />
      <CardBody className="space-y-4">
        {values.isPending ? (
          <Skeleton className="h-8 w-full" />
        ) : values.isError ? (
          <Alert>Could not load values: {values.error.message}</Alert>
        ) : values.data.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No values yet.</p>
        ) : (
          <ul
            aria-label={`Values of ${tagKey.key}`}
            className="divide-y divide-zinc-100 dark:divide-zinc-800"
          >
            {values.data.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 text-sm break-words">{v.value}</span>
                {canEdit && (
                  <span className="flex gap-2">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Rename value ${v.value}`}
                      onClick={() => setPending({ kind: "rename", value: v })}
                    >
                      Rename
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete value ${v.value}`}
                      onClick={() => setPending({ kind: "delete", value: v })}
                    >
                      Delete
                    </Button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        {canEdit && (
          <NameForm
            id={`new-value-${tagKey.id}`}
            label={`New value for ${tagKey.key}`}
            submitLabel="Add value"
            pending={create.isPending}
            onSubmit={async (value) => {
              await create.mutateAsync({ tagKeyId: tagKey.id, value });
              await onDone(`Added ${tagKey.key}: ${value}`)();
            }}
          />
        )}
      </CardBody>
      <RenameDialog
        open={pending?.kind === "rename"}
        what="value"
        current={pending?.value.value ?? ""}
        pending={rename.isPending}
        onClose={() => setPending(null)}
        onRename={async (value) => {
          await rename.mutateAsync({ tagKeyId: tagKey.id, tagValueId: pending!.value.id, value });
          await onDone(`Renamed to ${value}`)();
        }}
      />
      <ConfirmDialog
        open={pending?.kind === "delete"}
        title={`Delete tag value “${pending?.value.value ?? ""}”?`}
        description="Deployments that carry it lose it."
        confirmLabel="Delete value"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        variant="danger"
        onClose={() => setPending(null)}
        onConfirm={() =>
          pending && remove.mutate({ tagKeyId: tagKey.id, tagValueId: pending.value.id })
        }
      />
    </Card>
  );
}
