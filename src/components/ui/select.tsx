import clsx from "clsx";
import type { SelectHTMLAttributes } from "react";
import { fieldClass } from "./input";

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={clsx(fieldClass, "pr-8", className)} {...props} />;
}
