"use client";

import { useEffect, useState } from "react";
import type { RuntimeLogEntry } from "@/schemas/runtime";

// The Logs tab's follow: one server-sent event stream per open tab (GET
// /v2/deployments/{id}/logs/stream, the cluster's own log follow), read with fetch so that its
// status is known (409: a deployment on a listener too old to follow, which the tab then reads
// again every 2 s).
// Aborted when the tab closes, the viewer pauses or the filters change.

const KEEP = 2_000;
const RETRY_MS = 3_000;

export interface LogStreamFilters {
  level: string;
  query: string;
  pod: string;
  /** The newest line already shown: the stream also sends what was printed since. */
  since: string | null;
}

export type StreamMode = "connecting" | "streaming" | "poll" | "off";

export function useLogStream(id: string, filters: LogStreamFilters, enabled: boolean) {
  const [lines, setLines] = useState<RuntimeLogEntry[]>([]);
  const [mode, setMode] = useState<StreamMode>("off");
  const [dropped, setDropped] = useState(0);
  const { level, query, pod, since } = filters;

  useEffect(() => {
    setLines([]);
    setDropped(0);
    if (!enabled) return setMode("off");
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const params = new URLSearchParams();
    if (level) params.set("level", level);
    if (query) params.set("query", query);
    if (pod) params.set("pod", pod);
    let from = since;
    const connect = async () => {
      setMode("connecting");
      if (from) params.set("since", from);
      try {
        const res = await fetch(`/v2/deployments/${id}/logs/stream?${params}`, {
          signal: abort.signal,
          headers: { accept: "text/event-stream" },
        });
        if (res.status === 409) return setMode("poll");
        if (!res.ok || !res.body) throw new Error(String(res.status));
        setMode("streaming");
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const blocks = buffer.split("\n\n");
          buffer = blocks.pop() ?? "";
          const fresh: RuntimeLogEntry[] = [];
          for (const block of blocks) {
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (!data) continue;
            if (event === "log") fresh.push(JSON.parse(data) as RuntimeLogEntry);
            else if (event === "dropped")
              setDropped((n) => n + (JSON.parse(data) as { count: number }).count);
          }
          if (fresh.length) {
            from = fresh.at(-1)!.timestamp;
            setLines((old) => [...old, ...fresh].slice(-KEEP));
          }
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      // The stream ended (a deploy, a restart of Hangar, the network): connect again.
      if (!abort.signal.aborted) {
        setMode("connecting");
        retry = setTimeout(() => void connect(), RETRY_MS);
      }
    };
    void connect();
    return () => {
      clearTimeout(retry);
      abort.abort();
    };
  }, [id, level, query, pod, since, enabled]);

  return { lines, mode, dropped };
}
