import { Trash2 } from "lucide-react";

/** Why edit controls are gone: the worker is tearing the deployment down. */
export function DeletingNotice() {
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
    >
      <Trash2 aria-hidden className="size-4 shrink-0" />
      Being deleted: this deployment takes no more changes.
    </p>
  );
}
