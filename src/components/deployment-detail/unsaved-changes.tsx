"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { holdHistory, type HistoryHold } from "./history-hold";

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

/** Where the user was going: a link's page, or a step back through the browser's history. */
type Leave = { to: string } | { back: number };

/**
 * While an editor holds unsaved changes, leaving asks first: a link inside the app (tabs,
 * navigation) or the browser's Back/Forward opens a question here; closing or reloading the tab
 * gets the browser's own.
 */
export function UnsavedChangesGuard({ dirty, what }: { dirty: boolean; what: string }) {
  const router = useRouter();
  const [leave, setLeave] = useState<Leave | null>(null);
  const hold = useRef<HistoryHold | null>(null);

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
      setLeave({ to });
    };
    hold.current = holdHistory((back) => setLeave({ back }));
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      hold.current?.end();
      hold.current = null;
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  return (
    <ConfirmDialog
      open={leave !== null}
      title="Leave without saving?"
      description={`Your changes to ${what} are not saved. Leaving this page discards them.`}
      confirmLabel="Leave without saving"
      variant="danger"
      onConfirm={() => {
        const target = leave;
        setLeave(null);
        if (!target) return;
        const onCopy = hold.current?.release() ?? false;
        if ("back" in target) window.history.go(-target.back);
        // The page's copy in history is the one left: replacing it keeps one entry per visit.
        else if (onCopy) router.replace(target.to);
        else router.push(target.to);
      }}
      onClose={() => setLeave(null)}
    />
  );
}
