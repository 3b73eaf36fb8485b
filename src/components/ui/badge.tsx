import clsx from "clsx";
import type { ReactNode } from "react";

export type BadgeTone = "green" | "amber" | "red" | "zinc" | "blue";

const tones: Record<BadgeTone, string> = {
  green:
    "bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30",
  amber:
    "bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30",
  red: "bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500/30",
  zinc: "bg-zinc-100 text-zinc-700 ring-zinc-500/20 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/20 dark:bg-blue-500/10 dark:text-blue-300 dark:ring-blue-500/30",
};
const dots: Record<BadgeTone, string> = {
  green: "bg-emerald-500",
  amber: "bg-amber-500",
  red: "bg-red-500",
  zinc: "bg-zinc-400",
  blue: "bg-blue-500",
};

export function Badge({
  tone = "zinc",
  dot,
  pulse,
  children,
}: {
  tone?: BadgeTone;
  dot?: boolean;
  /** The dot pulses: something is happening right now. */
  pulse?: boolean;
  children: ReactNode;
}) {
  return (
    <span
      className={clsx(
        "inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap",
        tones[tone],
      )}
    >
      {dot && (
        <span
          aria-hidden
          className={clsx(
            "size-1.5 rounded-full",
            dots[tone],
            pulse && "animate-pulse motion-reduce:animate-none",
          )}
        />
      )}
      {children}
    </span>
  );
}
