"use client";

import { formatRelative, tickFor } from "@/lib/relative-time";
import { useNow } from "./use-now";

const full = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "long" });

/**
 * "3 minutes ago", with the exact time on hover, kept true by the page's clock (every second
 * while it shows seconds); server and browser clocks may differ by a tick.
 */
export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  const now = useNow((at) => tickFor(at - date.getTime()));
  return (
    <time dateTime={iso} title={full.format(date)} suppressHydrationWarning>
      {formatRelative(date, now)}
    </time>
  );
}
