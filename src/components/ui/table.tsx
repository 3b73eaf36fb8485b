import clsx from "clsx";
import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";

// Plain, styled table parts: the caller decides the columns and rows.

/**
 * A wide table scrolls inside its frame, never the page: the frame is positioned so that
 * absolutely placed content (sr-only headers) stays in it too. On phones the first column (the
 * row's name) stays put while the others scroll beside it.
 */
const frame = clsx(
  "relative overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900/40",
  "max-sm:[&_tr>:first-child]:sticky max-sm:[&_tr>:first-child]:left-0 max-sm:[&_tr>:first-child]:z-[1]",
  "max-sm:[&_td:first-child]:bg-white dark:max-sm:[&_td:first-child]:bg-zinc-900",
  "max-sm:[&_th:first-child]:bg-zinc-50 dark:max-sm:[&_th:first-child]:bg-zinc-900",
);

export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className={frame}>
      <table className={clsx("w-full text-left text-sm", className)} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={clsx(
        "border-b border-zinc-200 bg-zinc-50/80 px-4 py-2.5 text-xs font-medium tracking-wide text-zinc-600 uppercase dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400",
        className,
      )}
      {...props}
    />
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={clsx("px-4 py-3 align-middle", className)} {...props} />;
}

export function Tr({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return (
    <tr
      className={clsx(
        "border-b border-zinc-100 last:border-0 hover:bg-zinc-50 dark:border-zinc-800/70 dark:hover:bg-zinc-800/40",
        className,
      )}
      {...props}
    />
  );
}
