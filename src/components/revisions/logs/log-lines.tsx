"use client";

import clsx from "clsx";
import { ArrowDown } from "lucide-react";
import { useLayoutEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { RevisionLogLine } from "@/schemas/revision-logs";
import { logClock } from "@/components/ui/log-clock";

const clock = logClock;
const full = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "long" });

/** Within this many pixels of the bottom counts as "at the bottom" (following new lines). */
const BOTTOM_SLACK_PX = 24;

/**
 * The lines in a scrolling monospace box that follows new output, until the user scrolls up;
 * scrolling back down (or "Jump to latest") follows again.
 */
export function LogLines({ lines, label }: { lines: RevisionLogLine[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);

  useLayoutEffect(() => {
    if (following && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines, following]);

  const onScroll = () => {
    const el = box.current!;
    setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX);
  };

  return (
    <div className="relative">
      <div
        ref={box}
        role="log"
        aria-live="polite"
        aria-label={label}
        tabIndex={0}
        onScroll={onScroll}
        className="max-h-96 overflow-auto rounded-md border border-zinc-200 bg-zinc-50 py-2 font-mono text-xs leading-5 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-800 dark:bg-zinc-950"
      >
        {lines.map((l) => (
          <div key={l.id} className="flex gap-3 px-3 hover:bg-zinc-100 dark:hover:bg-zinc-900">
            <time
              dateTime={l.created_at}
              title={full.format(new Date(l.created_at))}
              className="shrink-0 text-zinc-500 dark:text-zinc-400"
            >
              {clock.format(new Date(l.created_at))}
            </time>
            <span
              className={clsx(
                "w-12 shrink-0",
                l.stream === "build"
                  ? "text-violet-700 dark:text-violet-300"
                  : "text-teal-700 dark:text-teal-300",
              )}
            >
              {l.stream}
            </span>
            <span className="break-all whitespace-pre-wrap text-zinc-900 dark:text-zinc-100">
              {l.line}
            </span>
          </div>
        ))}
      </div>
      {!following && (
        <Button
          variant="secondary"
          size="sm"
          className="absolute right-4 bottom-3"
          onClick={() => setFollowing(true)}
        >
          <ArrowDown aria-hidden className="size-4" />
          Jump to latest
        </Button>
      )}
    </div>
  );
}
