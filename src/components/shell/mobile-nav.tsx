"use client";

import { MenuIcon, XIcon } from "@/components/ui/icons";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/**
 * Below the md breakpoint the sections (children: the server-rendered NavList) collapse behind a
 * menu button: a disclosure that Escape, a click outside or following a link closes, returning
 * focus to the button.
 */
export function MobileNav({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const panelId = useId();

  // Following a link closes the menu (state adjusted during render, not in an effect).
  if (open && openedAt !== pathname) {
    setOpen(false);
    setOpenedAt(pathname);
  }

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("a")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label="Menu"
        onClick={() => {
          setOpenedAt(pathname);
          setOpen((o) => !o);
        }}
        className="flex size-8 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 md:hidden dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        {open ? (
          <XIcon aria-hidden className="size-5" />
        ) : (
          <MenuIcon aria-hidden className="size-5" />
        )}
      </button>
      <nav
        ref={panel}
        id={panelId}
        aria-label="Main"
        hidden={!open}
        // A link followed to the page already shown changes no address: close on the click.
        onClick={(e) => {
          if ((e.target as Element).closest("a")) setOpen(false);
        }}
        className="absolute inset-x-0 top-full border-b border-zinc-200 bg-white shadow-lg md:hidden dark:border-zinc-800 dark:bg-zinc-950"
      >
        {children}
      </nav>
    </>
  );
}
