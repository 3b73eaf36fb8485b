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
const full = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "long" });

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

/** "3 minutes ago", with the exact time on hover; server and browser clocks may differ by a tick. */
export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={full.format(date)} suppressHydrationWarning>
      {formatRelative(date)}
    </time>
  );
}
