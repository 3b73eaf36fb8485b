import { DOTTED_SEGMENT } from "@/schemas/tracing";

// Run times keep the microseconds of the SDK's dotted_order: they travel as ISO strings, never
// through a JS Date (milliseconds), and PostgreSQL stores TIMESTAMPTZ(6).

/** `20261129T004804123456` → `2026-11-29T00:48:04.123456Z`. */
function dottedTime(stamp: string): string {
  const d = stamp;
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(9, 11)}:${d.slice(11, 13)}:${d.slice(13, 15)}.${d.slice(15, 21)}Z`;
}

export interface DottedOrder {
  /** The run's own segment's time (ISO, microseconds). */
  time: string;
  /** Run ids root first; the last is the run itself. */
  ids: string[];
}

export function parseDottedOrder(value: string): DottedOrder {
  const segments = value.split(".").map((s) => DOTTED_SEGMENT.exec(s)!);
  return {
    time: dottedTime(segments[segments.length - 1]![1]!),
    ids: segments.map((m) => m[2]!.toLowerCase()),
  };
}

/** An instant as the SDK sends it (epoch ms or ISO text) → ISO text, or null when unreadable. */
export function toIsoInstant(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  // ISO text keeps its microseconds; a string without an offset is UTC (the Python SDK's naive times).
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
  return Number.isNaN(Date.parse(text)) ? null : text;
}

/** The UTC day (00:00) an instant falls in. */
export function dayOf(iso: string): Date {
  const date = new Date(iso);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** SQL that prints a TIMESTAMPTZ(6) column as ISO 8601 UTC with microseconds. */
export const isoSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
