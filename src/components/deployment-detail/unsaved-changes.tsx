"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** The same-origin page a plain left click on a link would open, or null. */
function linkTarget(e: MouseEvent): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
    return null;
  const link = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download"))
    return null;
  const url = new URL(link.href, window.location.href);
  // Other sites unload the page: the browser's own beforeunload question covers them.
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === window.location.pathname && url.search === window.location.search)
    return null;
  return url.pathname + url.search + url.hash;
}

/**
 * While an editor holds unsaved changes, leaving asks first: a link inside the app (tabs,
 * navigation) opens a question here; closing or reloading the tab gets the browser's own.
 */
export function UnsavedChangesGuard({ dirty, what }: { dirty: boolean; what: string }) {
  const router = useRouter();
  const [leaveTo, setLeaveTo] = useState<string | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    // Capture on the document runs before React's handlers: the Link never sees the click.
    const onClick = (e: MouseEvent) => {
      const to = linkTarget(e);
      if (!to) return;
      e.preventDefault();
      e.stopPropagation();
      setLeaveTo(to);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  return (
    <ConfirmDialog
      open={leaveTo !== null}
      title="Leave without saving?"
      description={`Your changes to ${what} are not saved. Leaving this page discards them.`}
      confirmLabel="Leave without saving"
      variant="danger"
      onConfirm={() => {
        const to = leaveTo;
        setLeaveTo(null);
        if (to) router.push(to);
      }}
      onClose={() => setLeaveTo(null)}
    />
  );
}
