"use client";

import { useEffect, useRef, useState } from "react";
import type { RunStats } from "@/schemas/tracing";
import { bucketLabel, formatCount, formatLatency, formatRate } from "./format";

// Runs, errors and latency over time as a plain SVG plot (no chart library is a dependency):
// bars of runs per bucket with their errors stacked in red, and the p50/p99 latency lines
// under them. For screen readers: role="img" with a summary, and the figures in a hidden table.

const PANEL = 96;
const GAP = 28;
const AXIS = 22;
const LEFT = 44;
const RIGHT = 8;
const HEIGHT = PANEL * 2 + GAP + AXIS + 8;

/** The plot's width follows its frame (the text stays its size at 390 px and at 1280). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(240, Math.floor(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

function summaryOf(stats: RunStats, rangeLabel: string): string {
  const busiest = stats.buckets.reduce(
    (top, b) => (b.run_count > (top?.run_count ?? 0) ? b : top),
    undefined as RunStats["buckets"][number] | undefined,
  );
  return [
    `Runs, errors and latency per ${stats.interval}, ${rangeLabel.toLowerCase()}:`,
    `${plural(stats.run_count, "run")}, ${plural(stats.error_count, "error")} (${formatRate(stats.error_rate)}),`,
    `latency p50 ${formatLatency(stats.latency_p50)}, p99 ${formatLatency(stats.latency_p99)}.`,
    busiest
      ? `Busiest ${stats.interval}: ${bucketLabel(busiest.start_time, stats.interval)} with ${plural(busiest.run_count, "run")}.`
      : "",
  ]
    .join(" ")
    .trim();
}

export function StatsChart({ stats, rangeLabel }: { stats: RunStats; rangeLabel: string }) {
  const { ref, width } = useWidth();
  const buckets = stats.buckets;
  const n = Math.max(1, buckets.length);
  const plotW = width - LEFT - RIGHT;
  const step = plotW / n;
  const barW = Math.max(1, step * 0.75);
  const maxRuns = Math.max(1, ...buckets.map((b) => b.run_count));
  const maxLatency = Math.max(0.001, ...buckets.map((b) => b.latency_p99 ?? 0));
  const runsY = (v: number) => 4 + PANEL - (v / maxRuns) * PANEL;
  const latTop = 4 + PANEL + GAP;
  const latY = (v: number) => latTop + PANEL - (v / maxLatency) * PANEL;
  const x = (i: number) => LEFT + i * step;
  const line = (pick: (b: RunStats["buckets"][number]) => number | null) => {
    let d = "";
    let pen = false;
    buckets.forEach((b, i) => {
      const v = pick(b);
      if (v === null) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${(x(i) + step / 2).toFixed(1)},${latY(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };
  const ticks = [0, Math.floor((n - 1) / 2), n - 1].filter((v, i, all) => all.indexOf(v) === i);
  const busy = buckets.filter((b) => b.run_count > 0);

  return (
    <figure className="space-y-2">
      <div ref={ref} className="w-full overflow-hidden">
        <svg
          role="img"
          aria-label={summaryOf(stats, rangeLabel)}
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          className="block text-zinc-500 dark:text-zinc-400"
        >
          {/* Runs panel */}
          <text x={0} y={12} className="fill-current text-[11px]">
            Runs
          </text>
          <text
            x={LEFT - 6}
            y={runsY(maxRuns) + 10}
            textAnchor="end"
            className="fill-current text-[11px]"
          >
            {maxRuns}
          </text>
          <line
            x1={LEFT}
            x2={width - RIGHT}
            y1={runsY(0)}
            y2={runsY(0)}
            className="stroke-zinc-300 dark:stroke-zinc-700"
          />
          {buckets.map((b, i) =>
            b.run_count === 0 ? null : (
              <g key={b.start_time}>
                <rect
                  x={x(i) + (step - barW) / 2}
                  y={runsY(b.run_count)}
                  width={barW}
                  height={runsY(0) - runsY(b.run_count)}
                  className="fill-blue-500 dark:fill-blue-400"
                />
                {b.error_count > 0 && (
                  <rect
                    x={x(i) + (step - barW) / 2}
                    y={runsY(b.error_count)}
                    width={barW}
                    height={runsY(0) - runsY(b.error_count)}
                    className="fill-red-600 dark:fill-red-400"
                  />
                )}
              </g>
            ),
          )}
          {/* Latency panel */}
          <text x={0} y={latTop + 8} className="fill-current text-[11px]">
            Latency
          </text>
          <text x={LEFT - 6} y={latTop + 22} textAnchor="end" className="fill-current text-[11px]">
            {formatLatency(maxLatency)}
          </text>
          <line
            x1={LEFT}
            x2={width - RIGHT}
            y1={latY(0)}
            y2={latY(0)}
            className="stroke-zinc-300 dark:stroke-zinc-700"
          />
          <path
            d={line((b) => b.latency_p99)}
            fill="none"
            strokeWidth={2}
            strokeDasharray="4 3"
            className="stroke-amber-600 dark:stroke-amber-400"
          />
          <path
            d={line((b) => b.latency_p50)}
            fill="none"
            strokeWidth={2}
            className="stroke-blue-600 dark:stroke-blue-400"
          />
          {/* Points too: a period alone between empty ones draws no line. */}
          {buckets.map((b, i) => (
            <g key={b.start_time}>
              {b.latency_p99 !== null && (
                <circle
                  cx={x(i) + step / 2}
                  cy={latY(b.latency_p99)}
                  r={3}
                  className="fill-amber-600 dark:fill-amber-400"
                />
              )}
              {b.latency_p50 !== null && (
                <circle
                  cx={x(i) + step / 2}
                  cy={latY(b.latency_p50)}
                  r={3}
                  className="fill-blue-600 dark:fill-blue-400"
                />
              )}
            </g>
          ))}
          {/* Time axis */}
          {ticks.map((i) => (
            <text
              key={i}
              x={x(i) + step / 2}
              y={HEIGHT - 6}
              textAnchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"}
              className="fill-current text-[11px]"
            >
              {buckets[i] ? bucketLabel(buckets[i].start_time, stats.interval) : ""}
            </text>
          ))}
        </svg>
      </div>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        <Key className="bg-blue-500 dark:bg-blue-400">Runs</Key>
        <Key className="bg-red-600 dark:bg-red-400">Errors</Key>
        <Key className="h-0.5 bg-blue-600 dark:bg-blue-400">Latency p50</Key>
        <Key className="h-0.5 border-t-2 border-dashed border-amber-600 dark:border-amber-400">
          Latency p99
        </Key>
      </figcaption>
      {/* A table is never narrower than its content: the hidden frame is a div around it. */}
      <div className="sr-only">
        <table>
          <caption>Runs, errors and latency per {stats.interval} (periods with runs)</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Runs</th>
              <th scope="col">Errors</th>
              <th scope="col">Latency p50</th>
              <th scope="col">Latency p99</th>
            </tr>
          </thead>
          <tbody>
            {busy.map((b) => (
              <tr key={b.start_time}>
                <th scope="row">{new Date(b.start_time).toLocaleString("en")}</th>
                <td>{b.run_count}</td>
                <td>{b.error_count}</td>
                <td>{formatLatency(b.latency_p50)}</td>
                <td>{formatLatency(b.latency_p99)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Key({ className, children }: { className: string; children: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden
        className={`inline-block w-3 ${className.includes("h-") ? "" : "h-3"} ${className}`}
      />
      {children}
    </span>
  );
}
