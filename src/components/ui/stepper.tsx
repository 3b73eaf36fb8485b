import clsx from "clsx";
import { Check } from "lucide-react";

export interface Step {
  id: string;
  label: string;
}

/**
 * Progress through a multi-step flow: finished steps are buttons that go back to them, the
 * current one is marked aria-current="step", later ones are plain text.
 */
export function Stepper({
  steps,
  current,
  onSelect,
}: {
  steps: Step[];
  current: number;
  onSelect: (index: number) => void;
}) {
  return (
    <nav aria-label="Progress">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-3">
        {steps.map((step, i) => {
          const done = i < current;
          const isCurrent = i === current;
          const marker = (
            <span
              aria-hidden
              className={clsx(
                "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                done && "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900",
                isCurrent &&
                  "border-2 border-zinc-900 text-zinc-900 dark:border-zinc-100 dark:text-zinc-100",
                !done &&
                  !isCurrent &&
                  "border border-zinc-300 text-zinc-500 dark:border-zinc-700 dark:text-zinc-400",
              )}
            >
              {done ? <Check className="size-3.5" /> : i + 1}
            </span>
          );
          const text = (
            <span
              className={clsx(
                "text-sm font-medium",
                isCurrent || done
                  ? "text-zinc-900 dark:text-zinc-100"
                  : "text-zinc-500 dark:text-zinc-400",
              )}
            >
              {step.label}
            </span>
          );
          return (
            <li key={step.id} className="flex items-center gap-2">
              {done ? (
                <button
                  type="button"
                  onClick={() => onSelect(i)}
                  className="flex items-center gap-2 rounded-md p-1 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
                >
                  {marker}
                  {text}
                  <span className="sr-only">(completed)</span>
                </button>
              ) : (
                <span
                  aria-current={isCurrent ? "step" : undefined}
                  className="flex items-center gap-2 p-1"
                >
                  {marker}
                  {text}
                </span>
              )}
              {i < steps.length - 1 && (
                <span aria-hidden className="h-px w-6 bg-zinc-300 sm:w-10 dark:bg-zinc-700" />
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
