"use client";

import clsx from "clsx";
import { lazy, Suspense } from "react";
import { ChevronDownIcon } from "@/components/ui/icons";
import { buttonClass } from "@/components/ui/button";
import { Popover } from "@/components/ui/popover";

export interface CheckGroup {
  label?: string;
  options: { value: string; label: string }[];
}

// The menu's code loads when a menu first opens, not with the page.
const CheckList = lazy(() => import("./check-list").then((m) => ({ default: m.CheckList })));

/** A filter button opening a list of checkboxes (statuses, tag values). */
export function CheckPopover({
  label,
  groups,
  selected,
  onChange,
  empty,
}: {
  label: string;
  groups: CheckGroup[];
  selected: string[];
  onChange: (values: string[]) => void;
  empty: string;
}) {
  const count = selected.length;
  return (
    <Popover
      // The name starts with what the button shows ("Status 2"), as WCAG's label in name asks.
      label={count ? `${label} ${count} selected` : label}
      triggerClassName={clsx(
        buttonClass("secondary"),
        "font-normal",
        count && "border-zinc-400 dark:border-zinc-600",
      )}
      trigger={
        <>
          {label}{" "}
          {count > 0 && (
            <span className="rounded-full bg-zinc-900 px-1.5 text-xs text-white dark:bg-zinc-100 dark:text-zinc-900">
              {count}
            </span>
          )}
          <ChevronDownIcon aria-hidden className="size-4 text-zinc-400" />
        </>
      }
    >
      {() => (
        <Suspense
          fallback={<p className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>}
        >
          <CheckList groups={groups} selected={selected} onChange={onChange} empty={empty} />
        </Suspense>
      )}
    </Popover>
  );
}
