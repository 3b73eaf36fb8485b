"use client";

import { TriangleAlertIcon } from "@/components/ui/icons";
import { Button } from "@/components/ui/button";

/** What error.tsx files render: the message stays generic, the digest ties it to the server log. */
export function ErrorView({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <div className="rounded-full bg-red-50 p-3 dark:bg-red-500/10">
        <TriangleAlertIcon aria-hidden className="size-6 text-red-600 dark:text-red-400" />
      </div>
      <h1 className="mt-4 text-lg font-semibold">Something went wrong</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        This page could not be loaded. Try again; if it keeps failing, check the server log
        {error.digest ? ` (reference ${error.digest})` : ""}.
      </p>
      <Button className="mt-6" variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
