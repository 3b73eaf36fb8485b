import type { ReactNode } from "react";

/** What the control inside a FormField needs to be labelled and described. */
export interface FieldAria {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
}

/**
 * A label, the control, a hint and an error, wired by ids. Pass the control as a function to get
 * its aria props, or as a node that sets aria-describedby={describedBy(id, ...)} itself.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  badge,
  className = "space-y-1.5",
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  badge?: ReactNode;
  className?: string;
  children: ReactNode | ((aria: FieldAria) => ReactNode);
}) {
  const aria = {
    id,
    "aria-invalid": !!error,
    "aria-describedby": describedBy(id, { hint, error }),
  };
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {label}
        </label>
        {badge}
      </div>
      {typeof children === "function" ? children(aria) : children}
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}

/** The hint, or the error in its place. */
export function FieldNote({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
      {error}
    </p>
  ) : (
    hint && (
      <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
        {hint}
      </p>
    )
  );
}

/** The ids a control inside FormField is described by. */
export function describedBy(id: string, { hint, error }: { hint?: unknown; error?: unknown }) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

/** zod's messages in a form's words (for zodResolver): an empty required field says so plainly. */
export const formErrors = {
  error: (issue: { code: string; minimum?: unknown; origin?: string; input?: unknown }) =>
    issue.code === "too_small" && issue.origin === "string" && issue.minimum === 1
      ? "Required"
      : undefined,
};
