"use client";

import type { CheckGroup } from "./check-popover";

/** The open filter menu's checkboxes, grouped (tag values under their key). */
export function CheckList({
  groups,
  selected,
  onChange,
  empty,
}: {
  groups: CheckGroup[];
  selected: string[];
  onChange: (values: string[]) => void;
  empty: string;
}) {
  const toggle = (value: string, on: boolean) =>
    onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  return (
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
  );
}
