"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";

/** Delete behind a dialog that asks for the deployment's name, so a slip cannot delete it. */
export function DeleteDeployment({ id, name }: { id: string; name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = useMutation(
    trpc.deployments.delete.mutationOptions({
      onSuccess: () => {
        // The worker tears it down; the list shows it as deleting until it is gone. Its page is
        // left at once, without refetching it first (it may be gone already).
        toast.success(`Deleting ${name}`);
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
        router.push("/deployments");
      },
      onError: (error) => toast.error(`Could not delete ${name}: ${error.message}`),
    }),
  );
  const close = () => {
    setOpen(false);
    setTyped("");
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="size-4" />
        Delete
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title="Delete deployment"
        description={
          <>
            This permanently deletes{" "}
            <strong className="font-semibold text-zinc-900 dark:text-zinc-100">{name}</strong>, its
            revisions and secrets. It cannot be undone.
          </>
        }
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (typed === name) remove.mutate({ id });
          }}
          className="space-y-4"
        >
          <div className="space-y-1.5">
            <label htmlFor="confirm-name" className="text-sm text-zinc-700 dark:text-zinc-300">
              Type <span className="font-mono font-semibold">{name}</span> to confirm
            </label>
            <Input
              id="confirm-name"
              autoComplete="off"
              data-autofocus
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={typed !== name || remove.isPending}>
              {remove.isPending ? "Deleting…" : "Delete deployment"}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
