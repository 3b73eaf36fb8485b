import type { ReactNode } from "react";

/**
 * A label, the control, a hint and an error, wired by ids: the control gets `id`, and should set
 * aria-describedby={describedBy(id, ...)} and aria-invalid when there is an error.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  badge,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  badge?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {label}
        </label>
        {badge}
      </div>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** The ids a control inside FormField is described by. */
export function describedBy(id: string, { hint, error }: { hint?: unknown; error?: unknown }) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}
