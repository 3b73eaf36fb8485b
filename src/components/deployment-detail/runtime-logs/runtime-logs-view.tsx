"use client";

import { useQuery } from "@tanstack/react-query";
import { Download, Pause, Play, ScrollText } from "lucide-react";
import { useDeferredValue, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { logLevels } from "@/schemas/deploy-logs";
import type { RuntimeLogEntry } from "@/schemas/runtime";
import { useTRPC } from "@/trpc/react";
import { RuntimeLogLines, shortPod } from "./runtime-log-lines";

const FOLLOW_MS = 2_000;
const PAGE = 500;

function download(lines: RuntimeLogEntry[], name: string) {
  const text = lines
    .map(
      (l) =>
        `${l.timestamp} ${l.pod} ${l.container}${l.previous ? " (previous)" : ""} ${l.level} ${l.message}`,
    )
    .join("\n");
  const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * The agent server's own output, read from the cluster (the same procedure as the deploy
 * client's deploy_logs): the newest 500 lines matching the filters, read again every 2 s while
 * following; paused, the page holds still.
 */
export function RuntimeLogsView({ id }: { id: string }) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const query = useDeferredValue(search.trim());
  const [level, setLevel] = useState("");
  const [pod, setPod] = useState("");
  const [paused, setPaused] = useState(false);
  const logs = useQuery({
    ...trpc.runtime.logs.queryOptions({
      deploymentId: id,
      limit: PAGE,
      order: "desc",
      query: query || null,
      level: level || null,
      pod: pod || null,
    }),
    refetchInterval: (q) => (paused || q.state.error ? false : FOLLOW_MS),
    placeholderData: (previous) => previous,
    retry: false,
  });
  const lines = useMemo(() => [...(logs.data?.logs ?? [])].reverse(), [logs.data]);
  const nothingRuns = logs.error?.data?.code === "CONFLICT";

  return (
    <Card>
      <CardHeader
        title="Logs"
        description={
          logs.data?.source ??
          "What the agent server and its queue workers print, read from the cluster."
        }
        actions={
          !logs.error &&
          (paused ? (
            <Badge tone="amber">Paused</Badge>
          ) : (
            <Badge tone="green" dot pulse>
              Following
            </Badge>
          ))
        }
      />
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <Input
            type="search"
            aria-label="Search the log"
            placeholder="Search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="min-w-0 flex-1 basis-40"
          />
          <Select aria-label="Level" value={level} onChange={(e) => setLevel(e.target.value)}>
            <option value="">All levels</option>
            {logLevels.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </Select>
          <Select aria-label="Replica" value={pod} onChange={(e) => setPod(e.target.value)}>
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
            onClick={() => setPaused((p) => !p)}
            disabled={!!logs.error}
          >
            {paused ? (
              <Play aria-hidden className="size-4" />
            ) : (
              <Pause aria-hidden className="size-4" />
            )}
            {paused ? "Follow" : "Pause"}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => download(lines, `logs-${id}.txt`)}
            disabled={lines.length === 0}
          >
            <Download aria-hidden className="size-4" />
            Download
          </Button>
        </div>
        {nothingRuns ? (
          <p
            role="status"
            className="rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
          >
            {logs.error!.message}
          </p>
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
          <RuntimeLogLines lines={lines} follow={!paused} />
        )}
      </CardBody>
    </Card>
  );
}
