"use client";

import clsx from "clsx";
import { useLayoutEffect, useRef, useState } from "react";
import type { RuntimeLogEntry } from "@/schemas/runtime";
import { logClock } from "@/components/ui/log-clock";

const clock = logClock;

const levelTone: Record<string, string> = {
  ERROR: "text-red-700 dark:text-red-300",
  CRITICAL: "text-red-700 dark:text-red-300",
  WARNING: "text-amber-700 dark:text-amber-300",
  DEBUG: "text-zinc-600 dark:text-zinc-400",
  INFO: "text-teal-700 dark:text-teal-300",
};

/** The replica's short name: its last two name parts ("7d4b9c-x2k1p"). */
export const shortPod = (pod: string) => pod.split("-").slice(-2).join("-");

// A leading time the app printed itself: ISO or "2026-11-29 05:03:28,123", optionally bracketed.
const OWN_STAMP = /^\[?(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)\]?\s+/;
const OWN_LEVEL = /^(?:\[(\w+)\]|(\w+):?|level=(\w+))\s+/i;
const LEVEL_WORDS: Record<string, string> = { warn: "WARNING", fatal: "CRITICAL", err: "ERROR" };

/**
 * The message without the app's own leading time and level where they only repeat Hangar's
 * columns (the same level; a time within 2 s of the line's): "2026-… INFO handled" → "handled".
 */
export function foldMessage(message: string, level: string, timestamp: string): string {
  let rest = message;
  const stamp = OWN_STAMP.exec(rest);
  if (stamp) {
    const own = Date.parse(stamp[1]!.replace(" ", "T").replace(",", "."));
    if (Math.abs(own - Date.parse(timestamp)) <= 2_000) rest = rest.slice(stamp[0].length);
  }
  const said = OWN_LEVEL.exec(rest);
  const word = said && (said[1] ?? said[2] ?? said[3])!.toLowerCase();
  if (word && (LEVEL_WORDS[word] ?? word.toUpperCase()) === level)
    rest = rest.slice(said![0].length);
  return rest.length ? rest : message;
}

/** Oldest first in a scrolling box that keeps to the newest line while `follow` is on. */
export function RuntimeLogLines({ lines, follow }: { lines: RuntimeLogEntry[]; follow: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  useLayoutEffect(() => {
    if (follow && atBottom && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines, follow, atBottom]);
  return (
    <div
      ref={box}
      role="log"
      aria-live="polite"
      aria-label="Runtime log"
      tabIndex={0}
      onScroll={() => {
        const el = box.current!;
        setAtBottom(el.scrollHeight - el.scrollTop - el.clientHeight <= 24);
      }}
      className="max-h-[32rem] overflow-auto rounded-md border border-zinc-200 bg-zinc-50 py-2 font-mono text-xs leading-5 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-800 dark:bg-zinc-950"
    >
      {lines.map((l) => {
        const message = foldMessage(l.message, l.level, l.timestamp);
        return (
          <div
            key={l.id}
            data-testid="log-row"
            // Fixed columns: time, replica badge, level; the message takes the rest (below them
            // on a phone) and wraps between words, inside a word only when it is longer than a line.
            className="grid grid-cols-[4.5rem_minmax(0,1fr)_4.5rem] gap-x-3 px-3 hover:bg-zinc-100 sm:grid-cols-[4.5rem_9.5rem_4.5rem_minmax(0,1fr)] dark:hover:bg-zinc-900"
          >
            <time dateTime={l.timestamp} className="text-zinc-600 dark:text-zinc-400">
              {clock.format(new Date(l.timestamp))}
            </time>
            <span
              data-testid="log-replica"
              className="flex min-w-0 items-baseline gap-1 text-zinc-600 dark:text-zinc-400"
              title={`${l.pod} (${l.container})${l.previous ? ", previous run" : ""}`}
            >
              <span className="truncate">
                {l.container}/{shortPod(l.pod)}
              </span>
              {l.previous && (
                <span className="shrink-0 rounded bg-zinc-200 px-1 text-[0.625rem] leading-4 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                  prev
                </span>
              )}
            </span>
            <span className={clsx(levelTone[l.level])}>{l.level}</span>
            <span
              data-testid="log-message"
              title={message === l.message ? undefined : l.message}
              className="col-span-3 min-w-0 break-normal whitespace-pre-wrap text-zinc-900 [overflow-wrap:anywhere] sm:col-span-1 dark:text-zinc-100"
            >
              {message}
            </span>
          </div>
        );
      })}
    </div>
  );
}
