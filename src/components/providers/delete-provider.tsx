"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useTRPC } from "@/trpc/react";

export function DeleteProvider({ providerId, name }: { providerId: string; name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useMutation(
    trpc.oauthProviders.delete.mutationOptions({
      onSuccess: async () => {
        toast.success(`Deleted ${name}`);
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.oauthProviders.list.queryKey() });
        router.push("/providers");
      },
      onError: (error) => toast.error(`Could not delete ${name}: ${error.message}`),
    }),
  );
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="size-4" />
        Delete
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete OAuth provider"
        description={
          <>
            Agents that sign in through <strong className="font-semibold">{name}</strong> (
            <span className="font-mono">{providerId}</span>) will stop working. This cannot be
            undone.
          </>
        }
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)} data-autofocus>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ providerId })}
          >
            {remove.isPending ? "Deleting…" : "Delete provider"}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
