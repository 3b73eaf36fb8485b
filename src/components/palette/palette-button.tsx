"use client";

import { lazy, Suspense, useState, type ReactNode } from "react";
import { useCommandPalette } from "./use-command-palette";

// The palette's code loads on first use, not with every page's header (React's lazy: next/dynamic
// would add its own loader code to every page for this one import), with the data layer it reads
// through: the header sits outside the segments that mount one.
const CommandPalette = lazy(() =>
  import("./command-palette").then((m) => ({ default: m.CommandPalette })),
);

/**
 * The header's search button (its face, `children`, drawn on the server); Ctrl+K or "/" open the
 * same palette from anywhere.
 */
export function PaletteButton({ children }: { children: ReactNode }) {
  const { open, setOpen } = useCommandPalette();
  // Once opened it stays mounted, so closing returns focus as the dialog does.
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K /"
        className="flex h-8 items-center gap-2 rounded-md border border-zinc-200 px-2 text-sm text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 sm:px-3 dark:border-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800"
      >
        {children}
      </button>
      {used && (
        <Suspense>
          <CommandPalette open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
