"use client";

import { AlertTriangle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import type { CreatedApiKey } from "@/schemas/api-keys";

/** The one time the secret key is shown: copy it now. */
export function KeyCreatedDialog({
  created,
  onClose,
}: {
  created: CreatedApiKey | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={!!created} onClose={onClose} title="Your new API key">
      {created && (
        <div className="space-y-4">
          <p className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            Copy this key now. It is shown only once: Hangar keeps only its hash.
          </p>
          <div className="space-y-1.5">
            <label
              htmlFor="created-key"
              className="text-sm font-medium text-zinc-700 dark:text-zinc-300"
            >
              {created.name} ({created.role})
            </label>
            <div className="flex gap-2">
              <input
                id="created-key"
                readOnly
                value={created.key}
                data-autofocus
                onFocus={(e) => e.currentTarget.select()}
                className="h-9 w-full min-w-0 rounded-md border border-zinc-200 bg-zinc-50 px-3 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
              />
              <CopyButton text={created.key} label="Copy key" />
            </div>
          </div>
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
