"use client";

import { X } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal on the native <dialog>: showModal() makes the page inert (focus stays inside) and
 * Escape closes it, so the browser does the accessibility work.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Whether the parent has it open, as of the last effect: a close event that arrives late
  // (Chromium delivers it up to ~200 ms after the dialog closed) must not close a dialog the
  // parent has since closed, or opened again.
  const parentOpen = useRef(open);

  useEffect(() => {
    parentOpen.current = open;
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs before the dialog opens; focus the marked field once it is shown.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape: the parent hears at once, from `cancel`; `close` only for a close the browser
      // made without one, while the parent still has the dialog open and it is really closed.
      onCancel={onClose}
      onClose={() => {
        if (parentOpen.current && !ref.current?.open) onClose();
      }}
      onClick={(e) => e.target === ref.current && onClose()}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-950/50 backdrop:backdrop-blur-[2px] dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {open && (
        <div className="p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="-m-1 rounded-md p-1 text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
            >
              <X aria-hidden className="size-4" />
            </button>
          </div>
          {description && (
            <div id={descriptionId} className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
              {description}
            </div>
          )}
          <div className="mt-5">{children}</div>
        </div>
      )}
    </dialog>
  );
}
