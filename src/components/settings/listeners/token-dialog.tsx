"use client";

import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";
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
    <ShownOnceDialog
      value={created?.token ?? null}
      onClose={onClose}
      title="Your listener's token"
      noun="token"
      label={`Token for ${created?.compute_id ?? ""}`}
      inputId="listener-token"
    >
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Run it with{" "}
        <code className="font-mono text-xs">
          HANGAR_URL=… HANGAR_LISTENER_TOKEN=… npm run listener
        </code>{" "}
        (README: the manifest for your cluster).
      </p>
    </ShownOnceDialog>
  );
}
