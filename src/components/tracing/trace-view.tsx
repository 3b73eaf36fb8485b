"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { formatCount, formatLatency } from "./format";
import { RunDetail } from "./run-detail";
import { RunStatusBadge } from "./run-status";
import { latencyOf, Waterfall } from "./waterfall";

// One trace: its waterfall beside (below, on a phone) the chosen run. The trace and the run are
// in the URL (?trace=&run=), so a trace can be linked to and Back returns to the list. A trace
// of more than a page (1,000 runs) loads the next pages on "Load more runs".

const LIVE_MS = 3000;

export function TraceView({ traceId, runId }: { traceId: string; runId: string | null }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const heading = useRef<HTMLHeadingElement>(null);
  const trace = useInfiniteQuery({
    ...trpc.tracing.traceRuns.infiniteQueryOptions(
      { traceId },
      { getNextPageParam: (page) => page.cursors.next },
    ),
    // A trace still running gains runs and ends them: follow it until every run has ended.
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.runs.some((r) => r.status === "pending")) ? LIVE_MS : false,
  });
  useEffect(() => heading.current?.focus(), [traceId]);

  const back = (
    <Link
      href={pathname}
      className="inline-flex items-center gap-1 rounded-sm text-sm text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:text-zinc-100"
    >
      <ArrowLeft aria-hidden className="size-4" />
      All runs
    </Link>
  );
  if (trace.isPending)
    return (
      <div className="space-y-4">
        {back}
        <div role="status" aria-label="Loading the trace" className="space-y-2">
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-48 w-full" />
        </div>
      </div>
    );
  if (trace.isError)
    return (
      <div className="space-y-4">
        {back}
        <Alert>
          {trace.error.data?.code === "NOT_FOUND"
            ? "This trace is not in this workspace, or retention has dropped it."
            : `Could not load the trace: ${trace.error.message}`}
        </Alert>
      </div>
    );

  const summary = trace.data.pages[0]!;
  const runs = trace.data.pages.flatMap((p) => p.runs);
  const root = runs.find((r) => r.id === summary.root_run_id) ?? runs[0]!;
  const selected = runs.find((r) => r.id === runId)?.id ?? root.id;
  const traceMs = summary.end_time
    ? Date.parse(summary.end_time) - Date.parse(summary.start_time)
    : null;
  // The native history call keeps useSearchParams in step without a server round trip per key.
  const select = (id: string) =>
    window.history.replaceState(null, "", `${pathname}?trace=${traceId}&run=${id}`);

  return (
    <div className="space-y-4">
      {back}
      <div className="flex flex-wrap items-center gap-3">
        <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          Trace: {root.name || "(unnamed)"}
        </h2>
        <RunStatusBadge status={root.status} />
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {formatCount(summary.run_count)} {summary.run_count === 1 ? "run" : "runs"} ·{" "}
          {formatLatency(latencyOf(root))}
        </span>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card className="min-w-0">
          <CardHeader title="Waterfall" description="Use the arrow keys to move between runs." />
          <CardBody className="px-2 sm:px-3">
            <Waterfall
              runs={runs}
              traceMs={traceMs}
              total={summary.run_count}
              paged={trace.data.pages.length > 1 || trace.hasNextPage}
              more={
                trace.hasNextPage
                  ? { load: () => void trace.fetchNextPage(), loading: trace.isFetchingNextPage }
                  : null
              }
              selected={selected}
              onSelect={select}
            />
          </CardBody>
        </Card>
        <Card className="min-w-0">
          <CardBody>
            <RunDetail runId={selected} />
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
