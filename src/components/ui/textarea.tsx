import clsx from "clsx";
import type { ComponentProps } from "react";
import { fieldClass } from "./input";

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea className={clsx(fieldClass, "h-auto w-full py-2 font-mono", className)} {...props} />
  );
}
