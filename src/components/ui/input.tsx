import clsx from "clsx";
import type { ComponentProps, ReactNode } from "react";

export const fieldClass = clsx(
  "h-9 rounded-md border border-zinc-200 bg-white px-3 text-sm text-zinc-900 shadow-xs",
  "placeholder:text-zinc-400 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100 dark:placeholder:text-zinc-500",
  "focus-visible:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-blue-600/30",
  "aria-invalid:border-red-500 dark:aria-invalid:border-red-500",
  "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 dark:disabled:bg-zinc-900 dark:disabled:text-zinc-400",
);

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={clsx(fieldClass, "w-full", className)} {...props} />;
}

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
      {children}
    </label>
  );
}
