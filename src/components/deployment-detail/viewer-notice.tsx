import { Lock } from "lucide-react";

/** Why edit controls are missing: the server refuses viewers' changes anyway. */
export function ViewerNotice() {
  return (
    <p className="flex items-center gap-2 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
      <Lock aria-hidden className="size-4 shrink-0" />
      Read-only: viewers cannot change or delete deployments.
    </p>
  );
}
