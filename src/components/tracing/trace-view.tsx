"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { formatLatency } from "./format";
import { RunDetail } from "./run-detail";
import { RunStatusBadge } from "./run-status";
import { latencyOf, Waterfall } from "./waterfall";

// One trace: its waterfall beside (below, on a phone) the chosen run. The trace and the run are
// in the URL (?trace=&run=), so a trace can be linked to and Back returns to the list.

const LIVE_MS = 3000;

export function TraceView({ traceId, runId }: { traceId: string; runId: string | null }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const heading = useRef<HTMLHeadingElement>(null);
  const trace = useQuery({
    ...trpc.tracing.traceRuns.queryOptions({ traceId }),
    // A trace still running gains runs and ends them: follow it until every run has ended.
    refetchInterval: (q) =>
      q.state.data?.runs.some((r) => r.status === "pending") ? LIVE_MS : false,
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

  const runs = trace.data.runs;
  const root = runs.find((r) => r.id === trace.data.root_run_id) ?? runs[0]!;
  const selected = runs.find((r) => r.id === runId)?.id ?? root.id;
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
          {trace.data.run_count} {trace.data.run_count === 1 ? "run" : "runs"} ·{" "}
          {formatLatency(latencyOf(root))}
        </span>
      </div>
      {trace.data.truncated && (
        <Alert tone="amber">
          This trace has more runs than the waterfall shows (the first {runs.length}).
        </Alert>
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card className="min-w-0">
          <CardHeader title="Waterfall" description="Use the arrow keys to move between runs." />
          <CardBody className="px-2 sm:px-3">
            <Waterfall trace={trace.data} selected={selected} onSelect={select} />
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
