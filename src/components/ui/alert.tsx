import type { ReactNode } from "react";

const tones = {
  red: "border-red-200 bg-red-50 text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300",
  amber:
    "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200",
};

/** A message the user must see now (a failed load or save). */
export function Alert({
  children,
  tone = "red",
}: {
  children: ReactNode;
  tone?: keyof typeof tones;
}) {
  return (
    <div role="alert" className={`rounded-lg border p-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
