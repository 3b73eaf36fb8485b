"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useId, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { TRPCReactProvider, useTRPC } from "@/trpc/react";
import { matchPages, type PaletteItem } from "./palette-items";

/**
 * A combobox over pages and deployments: arrows move, Enter goes, Escape closes. It brings its own
 * data layer: the header is outside the segments that mount one.
 */
export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <TRPCReactProvider>
      <Dialog open={open} onClose={onClose} title="Go to">
        <PaletteSearch onClose={onClose} />
      </Dialog>
    </TRPCReactProvider>
  );
}

function PaletteSearch({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const deferred = useDeferredValue(query.trim());
  const listId = useId();
  const deployments = useQuery({
    ...trpc.deployments.list.queryOptions({ name_contains: deferred || undefined, limit: "8" }),
    placeholderData: keepPreviousData,
  });
  const items: PaletteItem[] = [
    ...(deployments.data?.resources ?? []).map((d) => ({
      id: `deployment:${d.id}`,
      label: d.name,
      group: "Deployments" as const,
      href: `/deployments/${d.id}`,
    })),
    ...matchPages(query),
  ];
  const current = Math.min(active, Math.max(items.length - 1, 0));
  const optionId = (i: number) => `${listId}-${i}`;

  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    router.push(item.href);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: items.length - 1,
    };
    if (e.key in moves && items.length > 0) {
      e.preventDefault();
      const next = (moves[e.key]! + items.length) % items.length;
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(items[current]);
    }
  };

  return (
    <div className="space-y-3">
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search deployments and pages
      </label>
      <input
        id={`${listId}-input`}
        data-autofocus
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={items.length > 0 ? optionId(current) : undefined}
        autoComplete="off"
        placeholder="Deployment name or page…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        className="h-10 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm placeholder:text-zinc-500 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-400"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Results"
        className="max-h-72 space-y-0.5 overflow-y-auto"
      >
        {items.map((item, i) => (
          <li
            key={item.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            onPointerMove={() => setActive(i)}
            onClick={() => go(item)}
            className={
              "flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 text-sm " +
              (i === current ? "bg-blue-600 text-white" : "text-zinc-800 dark:text-zinc-200")
            }
          >
            <span className="truncate">{item.label}</span>
            <span
              className={
                "shrink-0 text-xs " +
                (i === current ? "text-blue-50" : "text-zinc-600 dark:text-zinc-400")
              }
            >
              {item.group === "Deployments" ? "Deployment" : "Page"}
            </span>
          </li>
        ))}
      </ul>
      {items.length === 0 && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          Nothing matches “{query}”.
        </p>
      )}
    </div>
  );
}
