// Relative times ("12 seconds ago", "3 minutes ago") and how often each needs a new look to stay
// true: plain functions, so the server, the browser and the unit tests share them.

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export function formatRelative(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === "second") {
      return Math.abs(seconds) < 10 && unit === "second"
        ? "just now"
        : relative.format(Math.round(seconds / size), unit);
    }
  }
  return relative.format(0, "second");
}

/** Ticks the clock offers: every second, every 30 s, every minute. */
export const TICKS = { second: 1_000, halfMinute: 30_000, minute: 60_000 } as const;

/**
 * How often a time `ageMs` away must be looked at again for its text to stay true: every second
 * while it shows seconds (under a minute, "just now" included), every 30 s while it shows
 * minutes, every minute after.
 */
export function tickFor(ageMs: number): number {
  const age = Math.abs(ageMs);
  if (age < 60_000) return TICKS.second;
  if (age < 3_600_000) return TICKS.halfMinute;
  return TICKS.minute;
}
