"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Activity } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { RunStatus } from "@/schemas/tracing-dashboard";
import { useTRPCClient } from "@/trpc/react";
import { formatCount, formatLatency, formatRate, RANGES, type RangeId } from "./format";
import { RunStatusBadge } from "./run-status";
import { SendTracesHelp } from "./send-traces-help";
import { StatsChart } from "./stats-chart";
import { TraceView } from "./trace-view";

// A project's traces: the chart over a time range, the runs (filters, "Load more", new runs
// arriving while the page is open), and a trace's waterfall when one is chosen (?trace=).

/** New runs and fresh figures arrive this often while the page is open. */
const LIVE_MS = 3000;
const PAGE = 50;

/** Where a range of `ms` starts now, on the minute (the chart's buckets start on minutes). */
const rangeStart = (ms: number) =>
  new Date(Math.floor(Date.now() / 60_000) * 60_000 - ms).toISOString();

export function TracesView({ projectId, projectName }: { projectId: string; projectName: string }) {
  const search = useSearchParams();
  const traceId = search.get("trace");
  if (traceId) return <TraceView traceId={traceId} runId={search.get("run")} />;
  return <RunsOverview projectId={projectId} projectName={projectName} />;
}

function RunsOverview({ projectId, projectName }: { projectId: string; projectName: string }) {
  const client = useTRPCClient();
  const pathname = usePathname();
  const ids = useId();
  const [range, setRange] = useState<RangeId>("24h");
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState<RunStatus | "">("");
  const [children, setChildren] = useState(false);
  const rangeMs = RANGES.find((r) => r.id === range)!.ms;

  // The range slides: its start is read from the clock at every fetch (the 3 s poll included),
  // not fixed when the page loaded, so the keys hold the range and not an instant — the pages
  // "Load more" fetched are kept, and each poll fetches them again over the range as it is now.
  const statsInput = { projectId, rootOnly: !children };
  const stats = useQuery({
    queryKey: ["tracing.stats", { ...statsInput, range }],
    queryFn: ({ signal }) =>
      client.tracing.stats.query({ ...statsInput, startTime: rangeStart(rangeMs) }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.error ? false : LIVE_MS),
  });
  const listInput = {
    projectId,
    limit: PAGE,
    search: query.trim() || undefined,
    status: status || undefined,
    rootOnly: !children,
  };
  const runs = useInfiniteQuery({
    queryKey: ["tracing.runs", { ...listInput, range }],
    queryFn: ({ pageParam, signal }) =>
      client.tracing.runs.query(
        { ...listInput, startTime: rangeStart(rangeMs), cursor: pageParam },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.error ? false : LIVE_MS),
  });
  const rows = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  const rangeLabel = RANGES.find((r) => r.id === range)!.label;
  const filtered = query.trim() !== "" || status !== "";

  let list;
  if (runs.isPending)
    list = (
      <div role="status" aria-label="Loading runs" className="space-y-2">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  else if (runs.isError) list = <Alert>Could not load the runs: {runs.error.message}</Alert>;
  else if (rows.length === 0)
    list = filtered ? (
      <EmptyState
        icon={Activity}
        title="No runs match"
        description="Change the search or the status, or choose a longer time range."
      />
    ) : (
      <div className="space-y-4 rounded-lg border border-dashed border-zinc-300 px-5 py-8 dark:border-zinc-700">
        <div className="text-center">
          <h3 className="text-base font-semibold">No runs {rangeLabel.toLowerCase()}</h3>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Runs appear here within seconds of being sent.
          </p>
        </div>
        <SendTracesHelp project={projectName} />
      </div>
    );
  else
    list = (
      <div className="space-y-3">
        <div aria-busy={runs.isPlaceholderData}>
          <Table aria-label="Runs">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Status</Th>
                <Th className="text-right">Latency</Th>
                <Th className="text-right">Tokens</Th>
                <Th>Started</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((run) => (
                <Tr key={run.id}>
                  <Td className="max-w-[16rem]">
                    <Link
                      href={`${pathname}?trace=${run.trace_id}&run=${run.id}`}
                      className="block truncate rounded-sm font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
                    >
                      {run.name || "(unnamed)"}
                    </Link>
                    <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">
                      {run.error_preview ?? run.run_type}
                    </span>
                  </Td>
                  <Td>
                    <RunStatusBadge status={run.status} />
                  </Td>
                  <Td className="text-right whitespace-nowrap tabular-nums">
                    {formatLatency(run.latency)}
                  </Td>
                  <Td className="text-right tabular-nums">{formatCount(run.total_tokens)}</Td>
                  <Td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                    <RelativeTime iso={run.start_time} />
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        </div>
        {runs.hasNextPage && (
          <div className="flex justify-center">
            <Button
              variant="secondary"
              onClick={() => runs.fetchNextPage()}
              disabled={runs.isFetchingNextPage}
            >
              {runs.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          </div>
        )}
      </div>
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full sm:w-44">
          <label htmlFor={`${ids}-range`} className="mb-1 block text-xs font-medium">
            Time range
          </label>
          <Select
            id={`${ids}-range`}
            value={range}
            onChange={(e) => setRange(e.target.value as RangeId)}
          >
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="min-w-0 flex-1 sm:min-w-48">
          <label htmlFor={`${ids}-search`} className="mb-1 block text-xs font-medium">
            Search by name
          </label>
          <Input
            id={`${ids}-search`}
            type="search"
            value={query}
            placeholder="e.g. agent"
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div className="w-full sm:w-40">
          <label htmlFor={`${ids}-status`} className="mb-1 block text-xs font-medium">
            Status
          </label>
          <Select
            id={`${ids}-status`}
            value={status}
            onChange={(e) => setStatus(e.target.value as RunStatus | "")}
          >
            <option value="">All</option>
            <option value="success">Success</option>
            <option value="error">Error</option>
            <option value="pending">Running</option>
          </Select>
        </div>
        <label className="flex h-9 items-center gap-2 text-sm">
          <Checkbox checked={children} onChange={(e) => setChildren(e.target.checked)} />
          Include child runs
        </label>
      </div>

      <Card>
        <CardHeader
          title="Activity"
          description={`${children ? "All runs" : "Traces (root runs)"}, ${rangeLabel.toLowerCase()}`}
          actions={
            <span className="inline-flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
              <span
                aria-hidden
                className="size-1.5 animate-pulse rounded-full bg-emerald-500 motion-reduce:animate-none"
              />
              Live
            </span>
          }
        />
        <CardBody className="space-y-4">
          {stats.isPending ? (
            <div role="status" aria-label="Loading the chart">
              <Skeleton className="h-60 w-full" />
            </div>
          ) : stats.isError ? (
            <Alert>Could not load the figures: {stats.error.message}</Alert>
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
                {(
                  [
                    ["Runs", formatCount(stats.data.run_count)],
                    ["Error rate", formatRate(stats.data.error_rate)],
                    ["Latency p50", formatLatency(stats.data.latency_p50)],
                    ["Latency p99", formatLatency(stats.data.latency_p99)],
                    [
                      children ? "Tokens" : "Tokens (root runs)",
                      formatCount(stats.data.total_tokens),
                    ],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="rounded-md bg-zinc-50 px-3 py-2 dark:bg-zinc-800/50">
                    <dt className="text-xs text-zinc-600 dark:text-zinc-400">{label}</dt>
                    <dd className="text-lg font-semibold tabular-nums">{value}</dd>
                  </div>
                ))}
              </dl>
              <StatsChart stats={stats.data} rangeLabel={rangeLabel} />
            </>
          )}
        </CardBody>
      </Card>

      <section aria-labelledby={`${ids}-runs`} className="space-y-3">
        <h2 id={`${ids}-runs`} className="text-base font-semibold">
          {children ? "Runs" : "Traces"}
        </h2>
        {list}
      </section>
    </div>
  );
}
