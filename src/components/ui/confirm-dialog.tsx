"use client";

import type { ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";
import { Dialog } from "./dialog";

/**
 * A yes/no question in a modal; Escape cancels. The confirm button takes focus, except for a
 * destructive (danger) question, where Cancel does so Enter cannot destroy anything.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  variant = "primary",
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  variant?: ButtonVariant;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const destructive = variant === "danger";
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} data-autofocus={destructive || undefined}>
          Cancel
        </Button>
        <Button
          variant={variant}
          data-autofocus={!destructive || undefined}
          disabled={pending}
          onClick={onConfirm}
        >
          {pending ? (pendingLabel ?? confirmLabel) : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
