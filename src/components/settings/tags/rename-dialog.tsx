"use client";

import { Dialog } from "@/components/ui/dialog";
import { NameForm } from "./name-form";

/** Renames a tag key or value; deployments keep it (they refer to it by id). */
export function RenameDialog({
  open,
  what,
  current,
  pending,
  onRename,
  onClose,
}: {
  open: boolean;
  what: "key" | "value";
  current: string;
  pending: boolean;
  onRename: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Rename tag ${what} “${current}”`}
      description="Deployments that carry it keep it under the new name."
    >
      <NameForm
        id={`rename-tag-${what}`}
        label={`New ${what} name`}
        submitLabel="Rename"
        initial={current}
        pending={pending}
        autoFocus
        onSubmit={async (name) => {
          await onRename(name);
          onClose();
        }}
      />
    </Dialog>
  );
}
