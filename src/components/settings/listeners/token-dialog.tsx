"use client";

import { AlertTriangle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import type { CreatedListener } from "@/schemas/listeners";

/** The one time a listener's token is shown. */
export function ListenerTokenDialog({
  created,
  onClose,
}: {
  created: CreatedListener | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={!!created} onClose={onClose} title="Your listener's token">
      {created && (
        <div className="space-y-4">
          <p className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            Copy this token now. It is shown only once: Hangar keeps only its hash.
          </p>
          <div className="space-y-1.5">
            <label
              htmlFor="listener-token"
              className="text-sm font-medium text-zinc-700 dark:text-zinc-300"
            >
              Token for {created.compute_id}
            </label>
            <div className="flex gap-2">
              <input
                id="listener-token"
                readOnly
                value={created.token}
                data-autofocus
                onFocus={(e) => e.currentTarget.select()}
                className="h-9 w-full min-w-0 rounded-md border border-zinc-200 bg-zinc-50 px-3 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
              />
              <CopyButton text={created.token} label="Copy token" />
            </div>
          </div>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Run it with{" "}
            <code className="font-mono text-xs">
              HANGAR_URL=… HANGAR_LISTENER_TOKEN=… npm run listener
            </code>{" "}
            (README: the manifest for your cluster).
          </p>
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
