"use client";

import clsx from "clsx";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import type { TraceTree } from "@/schemas/tracing";
import { formatCount, formatLatency } from "./format";
import { RunStatusBadge } from "./run-status";

// A trace's runs as a waterfall: one row per run in tree order, indented by depth, its bar
// offset by its start and as wide as its latency within the trace. Each row is a button (Tab
// reaches the list; the arrow keys, Home and End move within it); choosing one shows its run.
// A trace longer than a page shows how many of its runs are loaded, and loads the next page.

type Run = TraceTree["runs"][number];

/** Seconds a run took (from the tree's offsets), or null while it runs. */
export const latencyOf = (run: Run) =>
  run.end_offset_ms === null ? null : (run.end_offset_ms - run.start_offset_ms) / 1000;

/**
 * Where a run's bar sits, in percent of the trace's span: the whole trace's when it has ended (so
 * bars keep their place as more pages load), else the runs shown (a running run reaches its end).
 */
function bars(runs: Run[], traceMs: number | null) {
  const span = Math.max(1, traceMs ?? 0, ...runs.map((r) => r.end_offset_ms ?? r.start_offset_ms));
  return runs.map((r) => {
    const left = (r.start_offset_ms / span) * 100;
    const width =
      r.end_offset_ms === null ? 100 - left : ((r.end_offset_ms - r.start_offset_ms) / span) * 100;
    return { left, width: Math.max(0.8, Math.min(width, 100 - left)) };
  });
}

export function Waterfall({
  runs,
  traceMs,
  total,
  paged,
  more,
  selected,
  onSelect,
}: {
  /** The runs loaded so far, in tree order. */
  runs: Run[];
  /** The trace's length in milliseconds, once it has ended. */
  traceMs: number | null;
  /** All the trace's runs, loaded or not. */
  total: number;
  /** The trace takes more than one page: say how much of it is shown. */
  paged: boolean;
  /** The next page, when there is one: loading it moves the focus to its first run. */
  more: { load: () => void; loading: boolean } | null;
  selected: string;
  onSelect: (runId: string) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);
  const placed = bars(runs, traceMs);
  // Tab reaches the chosen run; when it is not among the runs shown, the first one.
  const reachable = runs.some((r) => r.id === selected) ? selected : runs[0]?.id;

  const buttonAt = (index: number) =>
    list.current?.querySelectorAll<HTMLButtonElement>("button[data-run]")[index];

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || runs.length <= from) return;
    focusFrom.current = null;
    buttonAt(from)?.focus();
  }, [runs.length]);

  const move = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = runs.length - 1;
    const target =
      event.key === "ArrowDown"
        ? Math.min(last, index + 1)
        : event.key === "ArrowUp"
          ? Math.max(0, index - 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    buttonAt(target)?.focus();
    onSelect(runs[target]!.id);
  };

  return (
    <div className="space-y-3">
      <ul ref={list} aria-label="Runs of the trace" className="space-y-0.5">
        {runs.map((run, i) => {
          const active = run.id === selected;
          const bar = placed[i]!;
          return (
            <li key={run.id}>
              <button
                type="button"
                data-run={run.id}
                aria-current={active ? "true" : undefined}
                tabIndex={run.id === reachable ? 0 : -1}
                onClick={() => onSelect(run.id)}
                onKeyDown={(event) => move(event, i)}
                className={clsx(
                  "grid w-full grid-cols-[minmax(0,1fr)_minmax(5rem,40%)] items-center gap-3 rounded-md px-2 py-1.5 text-left text-sm",
                  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600",
                  active
                    ? "bg-blue-50 ring-1 ring-blue-600/30 dark:bg-blue-500/10 dark:ring-blue-400/30"
                    : "hover:bg-zinc-50 dark:hover:bg-zinc-800/50",
                )}
              >
                <span
                  className="flex min-w-0 items-center gap-2"
                  style={{ paddingLeft: `${Math.min(run.depth ?? 0, 8) * 0.875}rem` }}
                >
                  <span className="truncate font-medium">{run.name || "(unnamed)"}</span>
                  <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">
                    {run.run_type}
                  </span>
                  {run.status !== "success" && <RunStatusBadge status={run.status} />}
                </span>
                <span className="flex items-center gap-2">
                  <span
                    aria-hidden
                    className="relative h-2.5 flex-1 rounded-sm bg-zinc-100 dark:bg-zinc-800"
                  >
                    <span
                      className={clsx(
                        "absolute inset-y-0 rounded-sm",
                        run.status === "error"
                          ? "bg-red-500"
                          : run.status === "pending"
                            ? "bg-amber-400"
                            : "bg-blue-500",
                      )}
                      style={{ left: `${bar.left}%`, width: `${bar.width}%` }}
                    />
                  </span>
                  <span className="w-16 shrink-0 text-right text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
                    {formatLatency(latencyOf(run))}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {paged && (
        <div className="flex flex-wrap items-center justify-between gap-2 px-2">
          <p role="status" className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
            Showing {formatCount(runs.length)} of {formatCount(total)} runs
          </p>
          {more && (
            <Button
              variant="secondary"
              size="sm"
              disabled={more.loading}
              onClick={() => {
                focusFrom.current = runs.length;
                more.load();
              }}
            >
              {more.loading ? "Loading…" : "Load more runs"}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
