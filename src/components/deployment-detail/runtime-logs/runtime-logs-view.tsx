"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, Pause, Play, ScrollText, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useDeferredValue, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { logLevels } from "@/schemas/deployment-values";
import type { RuntimeLogEntry } from "@/schemas/runtime";
import { terminationWords } from "@/lib/runtime-words";
import { useTRPC } from "@/trpc/react";
import { useDeployment, useLatestRevision } from "../use-deployment";
import { RuntimeLogLines, shortPod } from "./runtime-log-lines";
import { useLogStream } from "./use-log-stream";

const POLL_MS = 2_000;
const PAGE = 500;
const SHOWN = 1_000;

/** The time range's choices: how far back the page's read goes (the stream adds what is new). */
const RANGES = [
  { value: "", label: "As far back as kept" },
  { value: "900", label: "Last 15 minutes" },
  { value: "3600", label: "Last hour" },
  { value: "21600", label: "Last 6 hours" },
  { value: "86400", label: "Last 24 hours" },
];

/** The contract's sentence naming an API path is for API clients; the tab links instead. */
const withoutApiPath = (message: string) =>
  message.replace(/\s*Hangar's own deploy log is at .*$/, "");

/**
 * The agent server's own output, read from the cluster: the newest 500 lines matching the
 * filters, then each new line as it is printed (server-sent events over the cluster's log
 * follow, use-log-stream.ts; a listener follows its own cluster's for it). A deployment on a
 * listener too old to follow is read again every 2 s instead.
 * Paused, the page holds still and the stream is closed.
 */
export function RuntimeLogsView({ id }: { id: string }) {
  const trpc = useTRPC();
  const { deployment } = useDeployment(id);
  const latest = useLatestRevision(id);
  const [search, setSearch] = useState("");
  const query = useDeferredValue(search.trim());
  const [level, setLevel] = useState("");
  const [pod, setPod] = useState("");
  const [paused, setPaused] = useState(false);
  const [polling, setPolling] = useState(false);
  const [range, setRange] = useState({ value: "", from: null as string | null });
  const filters = { query: query || null, level: level || null, pod: pod || null };
  const input = {
    deploymentId: id,
    limit: PAGE,
    order: "desc" as const,
    ...filters,
    start_time: range.from,
  };
  const queryClient = useQueryClient();
  // "Load older": pages before the first read, by its next_offset; reset with the filters.
  const [older, setOlder] = useState<{
    key: string;
    lines: RuntimeLogEntry[];
    offset: string | null;
  } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const logs = useQuery({
    ...trpc.runtime.logs.queryOptions(input),
    refetchInterval: (q) => (polling && !paused && !q.state.error ? POLL_MS : false),
    refetchOnWindowFocus: false,
    placeholderData: (previous) => previous,
    retry: false,
  });
  const runtime = useQuery(trpc.runtime.state.queryOptions({ deploymentId: id }));
  const snapshot = useMemo(() => [...(logs.data?.logs ?? [])].reverse(), [logs.data]);
  // The stream starts where the page's read ended: its newest line, or the time of the read.
  const newest =
    snapshot.at(-1)?.timestamp ??
    (logs.dataUpdatedAt ? new Date(logs.dataUpdatedAt - 1_000).toISOString() : null);
  const canStream =
    Boolean(logs.data) && !logs.isPlaceholderData && !logs.isFetching && !paused && !polling;
  const stream = useLogStream(id, { level, query, pod, since: newest }, canStream);
  if (stream.mode === "poll" && !polling) setPolling(true);
  const inputKey = JSON.stringify(input);
  const olderHere = older?.key === inputKey ? older : null;
  const olderOffset = olderHere ? olderHere.offset : (logs.data?.next_offset ?? null);
  async function loadOlder() {
    if (!olderOffset) return;
    setLoadingOlder(true);
    try {
      const page = await queryClient.fetchQuery(
        trpc.runtime.logs.queryOptions({ ...input, offset: olderOffset }),
      );
      setOlder({
        key: inputKey,
        lines: [...page.logs.reverse(), ...(olderHere?.lines ?? [])],
        offset: page.next_offset,
      });
    } finally {
      setLoadingOlder(false);
    }
  }
  const lines = useMemo(() => {
    const earlier = olderHere?.lines ?? [];
    if (!stream.lines.length && !earlier.length) return snapshot;
    const seen = new Set(snapshot.map((l) => l.id));
    const merged: RuntimeLogEntry[] = [...snapshot];
    for (const l of stream.lines) {
      if (seen.has(l.id)) continue;
      seen.add(l.id);
      merged.push(l);
    }
    const newer = merged
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
      .slice(-SHOWN)
      .filter((l) => !earlier.some((e) => e.id === l.id));
    return [...earlier, ...newer];
  }, [snapshot, stream.lines, olderHere]);
  const nothingRuns = logs.error?.data?.code === "CONFLICT";
  const crashLooping =
    runtime.data?.running && /CrashLoopBackOff/.test(runtime.data.reason ?? "")
      ? runtime.data
      : null;
  const off = nothingRuns ? "Nothing is running, so there is nothing to search or filter." : null;
  const revision = deployment.active_revision_id ?? deployment.latest_revision_id;
  const downloadUrl = `/v2/deployments/${id}/logs/download?${new URLSearchParams(
    Object.entries({ ...filters, start_time: range.from }).filter((e): e is [string, string] =>
      Boolean(e[1]),
    ),
  )}`;

  return (
    <Card>
      <CardHeader
        title="Logs"
        description={
          polling
            ? `${logs.data?.source ?? ""} Followed by reading again every 2 s: this listener is a version that does not stream logs (upgrade it to stream them).`
            : (logs.data?.source ??
              "What the agent server and its queue workers print, read from the cluster.")
        }
        actions={
          !logs.error &&
          (paused ? (
            <Badge tone="amber">Paused</Badge>
          ) : stream.mode === "streaming" || polling ? (
            <Badge tone="green" dot pulse>
              Following
            </Badge>
          ) : (
            <Badge tone="zinc">Connecting…</Badge>
          ))
        }
      />
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <Input
            type="search"
            aria-label="Search the log"
            aria-describedby={off ? "logs-off" : undefined}
            placeholder="Search"
            value={search}
            disabled={!!off}
            onChange={(e) => setSearch(e.target.value)}
            className="min-w-0 flex-1 basis-40"
          />
          <Select
            aria-label="Level"
            value={level}
            disabled={!!off}
            onChange={(e) => setLevel(e.target.value)}
          >
            <option value="">All levels</option>
            {logLevels.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Time range"
            value={range.value}
            disabled={!!off}
            onChange={(e) => {
              const seconds = Number(e.target.value);
              setRange({
                value: e.target.value,
                from: seconds ? new Date(Date.now() - seconds * 1000).toISOString() : null,
              });
            }}
          >
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Replica"
            value={pod}
            disabled={!!off}
            onChange={(e) => setPod(e.target.value)}
          >
            <option value="">All replicas</option>
            {(logs.data?.pods ?? []).map((p) => (
              <option key={p.name} value={p.name}>
                {p.component ?? "pod"} {shortPod(p.name)}
                {p.ready ? "" : " (not ready)"}
              </option>
            ))}
          </Select>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              // Following again: read the newest lines afresh, then stream from them.
              if (paused) void logs.refetch();
              setPaused(!paused);
            }}
            disabled={!!logs.error}
          >
            {paused ? (
              <Play aria-hidden className="size-4" />
            ) : (
              <Pause aria-hidden className="size-4" />
            )}
            {paused ? "Follow" : "Pause"}
          </Button>
          {logs.error ? (
            <Button variant="secondary" size="sm" disabled>
              <Download aria-hidden className="size-4" />
              Download
            </Button>
          ) : (
            <a
              href={downloadUrl}
              download
              className="inline-flex h-8 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-900 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
              title="Every line the filters match, as far back as the cluster keeps them"
            >
              <Download aria-hidden className="size-4" />
              Download
            </a>
          )}
        </div>
        {off && (
          <p id="logs-off" className="text-xs text-zinc-600 dark:text-zinc-400">
            {off}
          </p>
        )}
        {crashLooping && (
          <div
            role="status"
            data-testid="crash-loop-banner"
            className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
          >
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p>
              The agent server keeps crashing: it exits and Kubernetes starts it again after a wait
              {crashDetails(crashLooping)}. The lines below are from its current run and the run
              before it (marked “prev”); earlier runs are no longer kept by the cluster.
            </p>
          </div>
        )}
        {stream.dropped > 0 && (
          <p role="status" className="text-xs text-amber-800 dark:text-amber-300">
            {stream.dropped.toLocaleString("en-US")} lines were printed faster than 200 a second and
            were left out here; the download has them.
          </p>
        )}
        {nothingRuns ? (
          <div
            role="status"
            className="space-y-1 rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
          >
            <p>{withoutApiPath(logs.error!.message)}</p>
            {revision && (
              <p>
                <Link
                  href={`/deployments/${id}/revisions/${revision}`}
                  className="font-medium text-blue-700 underline underline-offset-2 hover:text-blue-800 dark:text-blue-400"
                >
                  {latest &&
                  /FAILED$/.test(latest.status) &&
                  revision === deployment.latest_revision_id
                    ? `Open the log of revision ${latest.number}, which failed (${latest.status.toLowerCase().replace("_", " ")})`
                    : `Open the build and deploy log of revision ${latest?.number ?? ""}`.trim()}
                </Link>
              </p>
            )}
          </div>
        ) : logs.error ? (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
          >
            {logs.error.message}
            <Button variant="secondary" size="sm" onClick={() => void logs.refetch()}>
              Try again
            </Button>
          </div>
        ) : logs.isPending ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Reading the log from the cluster…
          </p>
        ) : lines.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
            <ScrollText aria-hidden className="size-4" />
            {query || level || pod ? "No lines match." : "Nothing printed yet."}
          </p>
        ) : (
          <>
            {olderOffset && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => void loadOlder()}
                disabled={loadingOlder}
              >
                {loadingOlder ? "Loading older lines…" : `Load ${PAGE} older lines`}
              </Button>
            )}
            <RuntimeLogLines lines={lines} follow={!paused} />
          </>
        )}
      </CardBody>
    </Card>
  );
}

/** " (6 restarts so far; last exit: out of memory, exit 137)", in the words the overview uses. */
function crashDetails(state: {
  restarts: number;
  last_termination: { reason: string; exit_code: number | null } | null;
}): string {
  const details = [
    state.restarts > 0
      ? `${state.restarts} restart${state.restarts === 1 ? "" : "s"} so far`
      : null,
    state.last_termination
      ? `last exit: ${terminationWords(state.last_termination.reason, state.last_termination.exit_code)}`
      : null,
  ].filter(Boolean);
  return details.length ? ` (${details.join("; ")})` : "";
}
