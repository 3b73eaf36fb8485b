import clsx from "clsx";
import type { LucideIcon } from "lucide-react";

export interface Choice {
  value: string;
  label: string;
  detail?: string;
  icon?: LucideIcon;
}

/** One-of-many as native radios (arrow keys move between them), styled as selectable rows. */
export function ChoiceList({
  legend,
  name,
  value,
  onChange,
  options,
  hideLegend = false,
}: {
  legend: string;
  name: string;
  value: string | null;
  onChange: (value: string) => void;
  options: Choice[];
  hideLegend?: boolean;
}) {
  return (
    <fieldset>
      <legend
        className={
          hideLegend ? "sr-only" : "mb-2 text-sm font-medium text-zinc-700 dark:text-zinc-300"
        }
      >
        {legend}
      </legend>
      <div className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {options.map(({ value: v, label, detail, icon: Icon }) => {
          const id = `${name}-${v}`;
          return (
            <label
              key={v}
              htmlFor={id}
              className={clsx(
                "flex cursor-pointer items-center gap-3 px-4 py-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:-outline-offset-2 has-[:focus-visible]:outline-blue-600",
                v === value
                  ? "bg-blue-50 dark:bg-blue-500/10"
                  : "bg-white hover:bg-zinc-50 dark:bg-zinc-900/40 dark:hover:bg-zinc-800/50",
              )}
            >
              <input
                id={id}
                type="radio"
                name={name}
                value={v}
                checked={v === value}
                onChange={() => onChange(v)}
                className="size-4 accent-blue-600"
              />
              {Icon && <Icon aria-hidden className="size-4 text-zinc-500 dark:text-zinc-400" />}
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{label}</span>
                {detail && (
                  <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">
                    {detail}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
