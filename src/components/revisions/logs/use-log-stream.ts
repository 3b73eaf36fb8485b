"use client";

import { useEffect, useRef, useState } from "react";
import type { RevisionLogLine } from "@/schemas/revision-logs";
import type { RevisionStatus } from "@/schemas/revisions";

export type LogStreamPhase = "connecting" | "live" | "reconnecting" | "ended" | "error";

export interface LogStream {
  lines: RevisionLogLine[];
  phase: LogStreamPhase;
  /** The revision's final status, once the stream's `end` event arrived. */
  endStatus: RevisionStatus | null;
  /** Opens a new stream after an error, reading on from the last line shown. */
  retry: () => void;
}

/**
 * Follows a revision's log over server-sent events: the lines so far, then new ones until `end`.
 * A dropped connection is resumed by EventSource itself, which sends Last-Event-ID.
 */
export function useLogStream(
  url: string,
  onEnd?: (status: RevisionStatus | null) => void,
): LogStream {
  const [lines, setLines] = useState<RevisionLogLine[]>([]);
  const [phase, setPhase] = useState<LogStreamPhase>("connecting");
  const [endStatus, setEndStatus] = useState<RevisionStatus | null>(null);
  const [attempt, setAttempt] = useState(0);
  const lastId = useRef(0);
  const onEndRef = useRef(onEnd);
  useEffect(() => {
    onEndRef.current = onEnd;
  });

  useEffect(() => {
    const source = new EventSource(lastId.current ? `${url}?after=${lastId.current}` : url);
    setPhase("connecting");
    source.onopen = () => setPhase("live");
    source.addEventListener("log", (event) => {
      const line = JSON.parse((event as MessageEvent<string>).data) as RevisionLogLine;
      // A replayed line (a resume that overlaps) is not shown twice.
      if (line.id <= lastId.current) return;
      lastId.current = line.id;
      setLines((shown) => [...shown, line]);
    });
    source.addEventListener("end", (event) => {
      source.close();
      const { status } = JSON.parse((event as MessageEvent<string>).data) as {
        status: RevisionStatus | null;
      };
      setEndStatus(status);
      setPhase("ended");
      onEndRef.current?.(status);
    });
    // CONNECTING: the browser is retrying on its own; CLOSED: it gave up (e.g. a 404 or 401).
    source.onerror = () =>
      setPhase(source.readyState === EventSource.CLOSED ? "error" : "reconnecting");
    return () => source.close();
  }, [url, attempt]);

  return { lines, phase, endStatus, retry: () => setAttempt((n) => n + 1) };
}
