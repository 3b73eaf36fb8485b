"use client";

import clsx from "clsx";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/**
 * A button that opens a panel (menus, filter pickers): Escape or a click outside closes it and
 * focus returns to the button. Children are a render function given `close`, or plain nodes
 * (e.g. rendered on the server), in which case following a link inside closes the panel.
 */
export function Popover({
  trigger,
  label,
  children,
  align = "start",
  triggerClassName,
}: {
  trigger: ReactNode;
  label: string;
  children: ReactNode | ((close: () => void) => ReactNode);
  align?: "start" | "end";
  triggerClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={label}
        onClick={() => setOpen((o) => !o)}
        className={triggerClassName}
      >
        {trigger}
      </button>
      <div
        id={panelId}
        hidden={!open}
        onClick={(e) => {
          if (typeof children !== "function" && (e.target as Element).closest("a")) setOpen(false);
        }}
        className={clsx(
          "absolute z-30 mt-1.5 min-w-48 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-800 dark:bg-zinc-900",
          align === "end" ? "right-0" : "left-0",
        )}
      >
        {open && (typeof children === "function" ? children(close) : children)}
      </div>
    </div>
  );
}
