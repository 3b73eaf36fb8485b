import { Fragment, type ReactNode } from "react";

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

/**
 * An image reference (`host/repository:tag`, `...@sha256:...`) in mono that wraps only after
 * `/`, `@` and `:` on a narrow screen, never inside a name; a part too long for a line alone
 * (a digest's hex) still breaks rather than overflows.
 */
export function ImageRef({ value }: { value: string }) {
  const parts = value.split(/(?<=[/@:])/);
  return (
    <span
      title={value}
      className="font-mono text-[13px] [overflow-wrap:break-word] [word-break:normal]"
    >
      {parts.map((part, i) => (
        <Fragment key={i}>
          {/* A digest's 64 hex digits have no break point of their own: any place will do. */}
          <span className={part.length > 32 ? "[overflow-wrap:anywhere]" : undefined}>{part}</span>
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
