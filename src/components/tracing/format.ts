import type { StatsIntervalName } from "@/schemas/tracing";

// How tracing figures read on the dashboard.

/** Seconds as "850 ms", "1.24 s", "2 m 5 s"; "—" when there is none. */
export function formatLatency(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  return `${Math.floor(seconds / 60)} m ${Math.round(seconds % 60)} s`;
}

export const formatCount = (n: number | null | undefined) =>
  n === null || n === undefined ? "—" : n.toLocaleString("en");

export const formatRate = (rate: number | null | undefined) =>
  rate === null || rate === undefined
    ? "—"
    : `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)} %`;

const timeOnly = new Intl.DateTimeFormat("en", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const dayOnly = new Intl.DateTimeFormat("en", { month: "short", day: "numeric" });

/** A bucket's start as its interval reads it: a time of day, or a date. */
export function bucketLabel(iso: string, interval: StatsIntervalName): string {
  const date = new Date(iso);
  return interval === "day" ? dayOnly.format(date) : timeOnly.format(date);
}

/** The time ranges the views offer, and the stats interval each is read in. */
export const RANGES = [
  { id: "1h", label: "Last hour", ms: 3_600_000 },
  { id: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
] as const;
export type RangeId = (typeof RANGES)[number]["id"];
