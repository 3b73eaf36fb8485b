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

const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);
const NANOS = /^\d{1,30}$/;

/**
 * Unix nanoseconds (decimal text, OpenTelemetry's times) → ISO with microseconds; null past 9999
 * or when not such text. Read as text, not BigInt: this runs a few times for every span.
 */
export function nanosToIso(nanos: string): string | null {
  if (!NANOS.test(nanos)) return null;
  const digits = nanos.padStart(10, "0");
  const ms = Number(digits.slice(0, -6));
  if (ms > LATEST || (ms === LATEST && /[1-9]/.test(digits.slice(-6)))) return null;
  return `${new Date(ms).toISOString().slice(0, 19)}.${digits.slice(-9, -3)}Z`;
}

/** `2026-11-29T00:48:04.123456Z` → `20261129T004804123456`, a dotted_order segment's time. */
export function dottedStamp(iso: string): string {
  return iso.replace(/[-:]/g, "").replace(".", "").slice(0, 21);
}

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An instant as the SDK sends it (epoch ms, or ISO text keeping its microseconds; without an
 * offset it is UTC, as the Python SDK's naive times) → `YYYY-MM-DDTHH:MM:SS.ffffffZ`, or null
 * when it is not one (or outside 1970..9999).
 */
export function toIsoInstant(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  let ms: number;
  let micros: string;
  if (typeof value === "number") {
    ms = Math.floor(value);
    micros = String(ms % 1000).padStart(3, "0") + "000";
  } else {
    const m = ISO.exec(value.trim());
    if (!m) return null;
    ms = Date.parse(`${m[1]}${m[2] ? `.${m[2].slice(0, 3)}` : ""}${m[3] ?? "Z"}`);
    micros = (m[2] ?? "").slice(0, 6).padEnd(6, "0");
  }
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > LATEST) return null;
  return `${new Date(ms).toISOString().slice(0, 19)}.${micros}Z`;
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
