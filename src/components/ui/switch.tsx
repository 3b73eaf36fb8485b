import clsx from "clsx";
import type { ComponentProps } from "react";

/** A checkbox styled as a switch: role="switch" so screen readers announce on/off. */
export function Switch({ className, ...props }: Omit<ComponentProps<"input">, "type" | "role">) {
  return (
    <input
      type="checkbox"
      role="switch"
      className={clsx(
        "relative h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-zinc-300 transition-colors",
        "before:absolute before:top-0.5 before:left-0.5 before:size-4 before:rounded-full before:bg-white before:shadow-sm before:transition-transform",
        "checked:bg-zinc-900 checked:before:translate-x-4 dark:bg-zinc-700 dark:checked:bg-blue-500",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600",
        "disabled:cursor-not-allowed disabled:opacity-50",
        className,
      )}
      {...props}
    />
  );
}
