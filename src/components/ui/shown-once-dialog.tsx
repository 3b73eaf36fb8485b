"use client";

import { AlertTriangle } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";

/**
 * The one time a secret (an API key, a listener token) is shown: a warning that only its hash is
 * kept, the value selected on focus with a copy button, and what to do with it (`children`).
 */
export function ShownOnceDialog({
  value,
  onClose,
  title,
  noun,
  label,
  inputId,
  children,
}: {
  /** The secret; null keeps the dialog closed. */
  value: string | null;
  onClose: () => void;
  title: string;
  /** "key", "token": in "Copy this key now" and the copy button's label. */
  noun: string;
  label: ReactNode;
  inputId: string;
  children?: ReactNode;
}) {
  return (
    <Dialog open={value !== null} onClose={onClose} title={title}>
      {value !== null && (
        <div className="space-y-4">
          <p className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            Copy this {noun} now. It is shown only once: Hangar keeps only its hash.
          </p>
          <div className="space-y-1.5">
            <label
              htmlFor={inputId}
              className="text-sm font-medium text-zinc-700 dark:text-zinc-300"
            >
              {label}
            </label>
            <div className="flex gap-2">
              <input
                id={inputId}
                readOnly
                value={value}
                data-autofocus
                onFocus={(e) => e.currentTarget.select()}
                className="h-9 w-full min-w-0 rounded-md border border-zinc-200 bg-zinc-50 px-3 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
              />
              <CopyButton text={value} label={`Copy ${noun}`} />
            </div>
          </div>
          {children}
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
