"use client";

import { useEffect, useId, useSyncExternalStore } from "react";
import { TICKS } from "@/lib/relative-time";

// One clock per page for every relative time on it: a single interval whose period is the
// finest any shown time needs (1 s while something shows seconds, else 30 s or 60 s), so "12 s
// ago" moves every second and a page of "3 h ago" wakes once a minute.

let now = Date.now();
const listeners = new Set<() => void>();
/** Each user's needed period, by its id. */
const needs = new Map<string, number>();
let timer: ReturnType<typeof setInterval> | null = null;
let period = 0;

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

/** Restarts the interval when the finest needed period changed; none needed, none runs. */
function reschedule() {
  const finest = needs.size ? Math.min(...needs.values()) : 0;
  if (finest === period) return;
  if (timer) clearInterval(timer);
  timer = null;
  period = finest;
  if (finest) timer = setInterval(tick, finest);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // The clock may have idled (no interval): whoever arrives reads the time as it is now.
  if (!timer) now = Date.now();
  return () => void listeners.delete(listener);
}

const read = () => now;
// On the server, each render reads the time of that render.
const readOnServer = () => (typeof window === "undefined" ? Date.now() : now);

/** The period of the interval running now (0: none), for tests. */
export const clockPeriod = () => period;

/**
 * The page clock's time, re-rendering on each of its ticks. `periodFor(now)` says how often this
 * user needs one (e.g. tickFor(now - shownTime)); null when it shows no relative time.
 */
export function useNow(periodFor: (now: number) => number | null = () => TICKS.minute): number {
  const id = useId();
  const current = useSyncExternalStore(subscribe, read, readOnServer);
  const needed = periodFor(current);
  useEffect(() => {
    if (needed === null) needs.delete(id);
    else needs.set(id, needed);
    reschedule();
  }, [id, needed]);
  useEffect(
    () => () => {
      needs.delete(id);
      reschedule();
    },
    [id],
  );
  return current;
}
