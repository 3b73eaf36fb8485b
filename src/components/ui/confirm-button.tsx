"use client";

import type { ReactNode } from "react";
import { useState } from "react";
import { Button, type ButtonSize } from "./button";
import { ConfirmDialog } from "./confirm-dialog";

type DialogProps = Omit<Parameters<typeof ConfirmDialog>[0], "open" | "onClose" | "onConfirm">;

/**
 * A button that asks first. `onConfirm` gets `close` so the dialog can stay open (pending) until
 * the action has finished.
 */
export function ConfirmButton({
  children,
  label,
  size,
  onConfirm,
  ...dialog
}: DialogProps & {
  children: ReactNode;
  /** The button's accessible name (its text alone may not say which item it acts on). */
  label: string;
  size?: ButtonSize;
  onConfirm: (close: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <Button variant="secondary" size={size} onClick={() => setOpen(true)} aria-label={label}>
        {children}
      </Button>
      <ConfirmDialog {...dialog} open={open} onClose={close} onConfirm={() => onConfirm(close)} />
    </>
  );
}
