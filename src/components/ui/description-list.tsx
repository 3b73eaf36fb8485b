import type { ReactNode } from "react";

export interface DescriptionItem {
  label: string;
  value: ReactNode;
}

/** Label/value pairs in a responsive grid; empty values read "—". */
export function DescriptionList({ items }: { items: DescriptionItem[] }) {
  return (
    <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
      {items.map(({ label, value }) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{label}</dt>
          <dd className="mt-1 text-sm [overflow-wrap:anywhere] text-zinc-900 dark:text-zinc-100">
            {value ?? <span className="text-zinc-400">—</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function Mono({ children }: { children: ReactNode }) {
  return <span className="font-mono text-[13px]">{children}</span>;
}
