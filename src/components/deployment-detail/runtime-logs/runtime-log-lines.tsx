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
      {lines.map((l) => (
        <div
          key={l.id}
          className="flex flex-wrap gap-x-3 px-3 hover:bg-zinc-100 sm:flex-nowrap dark:hover:bg-zinc-900"
        >
          <time dateTime={l.timestamp} className="shrink-0 text-zinc-500 dark:text-zinc-400">
            {clock.format(new Date(l.timestamp))}
          </time>
          <span className="shrink-0 text-zinc-600 dark:text-zinc-400" title={`${l.pod} (${l.container})`}>
            {l.container}/{shortPod(l.pod)}
            {l.previous ? " (previous)" : ""}
          </span>
          <span className={clsx("w-16 shrink-0", levelTone[l.level])}>{l.level}</span>
          <span className="min-w-0 basis-full break-all whitespace-pre-wrap text-zinc-900 sm:basis-auto dark:text-zinc-100">
            {l.message}
          </span>
        </div>
      ))}
    </div>
  );
}
