"use client";

import clsx from "clsx";
import { ChevronDownIcon } from "@/components/ui/icons";
import { buttonClass } from "@/components/ui/button";
import { Popover } from "@/components/ui/popover";

export interface CheckGroup {
  label?: string;
  options: { value: string; label: string }[];
}

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
  const toggle = (value: string, on: boolean) =>
    onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  const count = selected.length;
  return (
    <Popover
      label={count ? `${label}: ${count} selected` : label}
      triggerClassName={clsx(
        buttonClass("secondary"),
        "font-normal",
        count && "border-zinc-400 dark:border-zinc-600",
      )}
      trigger={
        <>
          {label}
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
        <div className="max-h-72 overflow-y-auto py-1">
          {groups.every((g) => g.options.length === 0) && (
            <p className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">{empty}</p>
          )}
          {groups.map((group, i) => (
            <fieldset key={group.label ?? i} className="px-1 py-1">
              {group.label && (
                <legend className="px-2 pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">
                  {group.label}
                </legend>
              )}
              {group.options.map((o) => (
                <label
                  key={o.value}
                  className="flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
                >
                  <input
                    type="checkbox"
                    className="size-4 rounded accent-zinc-900 dark:accent-zinc-100"
                    checked={selected.includes(o.value)}
                    onChange={(e) => toggle(o.value, e.target.checked)}
                  />
                  {o.label}
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      )}
    </Popover>
  );
}
