import clsx from "clsx";
import type { ComponentProps, ReactNode } from "react";
import { describedBy, FieldNote } from "./form-field";

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

/** A checkbox with its label, and its hint or error, beside it. */
export function CheckboxField({
  id,
  label,
  hint,
  error,
  ...input
}: Omit<ComponentProps<"input">, "type"> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}) {
  return (
    <div className="flex gap-3">
      <Checkbox
        id={id}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, { hint, error })}
        className="mt-0.5 shrink-0"
        {...input}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {label}
        </label>
        <FieldNote id={id} hint={hint} error={error} />
      </div>
    </div>
  );
}
