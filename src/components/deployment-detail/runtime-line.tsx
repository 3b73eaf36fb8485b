"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { useNow } from "@/components/ui/use-now";
import { summarize, summaryTick } from "@/lib/runtime-summary";
import { useTRPC } from "@/trpc/react";

/**
 * What runs, as the cluster shows it: "2/2 ready · 3 restarts · OOMKilled 4 min ago", the
 * reason when it is not healthy, and the newest Warning events. Live: the deployment's change
 * events (use-deployment-status.ts) read it again.
 */
export function RuntimeLine({ id }: { id: string }) {
  const trpc = useTRPC();
  const { data, isPending, isError } = useQuery(
    trpc.runtime.state.queryOptions({ deploymentId: id }),
  );
  // The page's clock: every second while the summary shows seconds ("OOMKilled 12 s ago").
  const now = useNow((at) => (data?.running ? summaryTick(data, at) : null));
  if (isPending) return <span className="text-sm text-zinc-500">Reading…</span>;
  if (isError || !data)
    return <span className="text-sm text-red-800 dark:text-red-300">Could not be read.</span>;
  if (!data.running)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="runtime-summary">
        {data.reason}
      </p>
    );
  const tone = data.healthy === null ? "zinc" : data.healthy ? "green" : "red";
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={tone} dot pulse={data.healthy === false}>
          {data.healthy === null ? "Not observed yet" : data.healthy ? "Healthy" : "Unhealthy"}
        </Badge>
        {data.healthy !== null && (
          <span data-testid="runtime-summary" className="text-zinc-900 dark:text-zinc-100">
            {summarize(data, now)}
          </span>
        )}
      </p>
      {data.events.length > 0 && (
        <ul className="space-y-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {data.events.slice(0, 3).map((e) => (
            <li key={`${e.object}-${e.reason}-${e.at}`} className="break-words">
              <span className="font-medium">{e.reason}</span> {e.message}
              {e.count > 1 ? ` (×${e.count})` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
