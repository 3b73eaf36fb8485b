"use client";

import { useQuery } from "@tanstack/react-query";
import clsx from "clsx";
import { Badge } from "@/components/ui/badge";
import { useNow } from "@/components/ui/use-now";
import { ago, summaryTick } from "@/lib/runtime-summary";
import { componentsLine, plainEvent, terminationWords } from "@/lib/runtime-words";
import { useTRPC } from "@/trpc/react";

/**
 * What runs, as the cluster shows it, per component: "Server 1/1 · Queue 1/1 · Redis ready",
 * restarts, and the newest Warning events as timed lines (marked past once it is healthy
 * again). The reason it is unhealthy is the Status field's, said once. Live: the deployment's
 * change events (use-deployment-status.ts) read it again.
 */
export function RuntimeLine({ id }: { id: string }) {
  const trpc = useTRPC();
  const { data, isPending, isError } = useQuery(
    trpc.runtime.state.queryOptions({ deploymentId: id }),
  );
  // The page's clock: every second while a time shows seconds ("last exit 12 s ago: ...").
  const now = useNow((at) => (data?.running && data.healthy ? summaryTick(data, at) : null));
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
  const t = data.last_termination;
  const parts = [componentsLine(data.components)];
  // Unhealthy, the Status field already says the restarts and the last exit.
  if (data.healthy && data.restarts > 0)
    parts.push(`${data.restarts} restart${data.restarts === 1 ? "" : "s"}`);
  if (data.healthy && t)
    parts.push(
      `last exit${t.at ? ` ${ago(now - Date.parse(t.at))}` : ""}: ${terminationWords(t.reason, t.exit_code)}`,
    );
  const past = data.healthy === true;
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={tone} dot pulse={data.healthy === false}>
          {data.healthy === null ? "Not observed yet" : data.healthy ? "Healthy" : "Unhealthy"}
        </Badge>
        {data.healthy !== null && (
          <span data-testid="runtime-summary" className="text-zinc-900 dark:text-zinc-100">
            {parts.filter(Boolean).join(" · ")}
          </span>
        )}
      </p>
      {data.events.length > 0 && (
        <ul
          aria-label={past ? "Warnings before recovery" : "Warnings"}
          className={clsx(
            "space-y-0.5 text-xs",
            past ? "text-zinc-500 dark:text-zinc-400" : "text-zinc-700 dark:text-zinc-300",
          )}
        >
          {data.events.slice(0, 3).map((e) => (
            <li key={`${e.object}-${e.reason}-${e.at}`} className="break-words">
              {plainEvent(e)}
              {past && <span className="ml-1 italic">(before recovery)</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
