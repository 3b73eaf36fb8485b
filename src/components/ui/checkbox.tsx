import clsx from "clsx";
import type { ComponentProps } from "react";

export function Checkbox({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  return (
    <input
      type="checkbox"
      className={clsx(
        "size-4 rounded border-zinc-300 accent-zinc-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:accent-zinc-100",
        className,
      )}
      {...props}
    />
  );
}
