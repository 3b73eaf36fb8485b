"use client";

import { useQuery } from "@tanstack/react-query";
import { Activity } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { useTRPC } from "@/trpc/react";
import { formatCount, formatRate } from "./format";
import { SendTracesHelp } from "./send-traces-help";

// The workspace's tracing projects: each deployment's, and those the SDK made by name.

const link =
  "rounded-sm font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400";

export function ProjectsView() {
  const trpc = useTRPC();
  const projects = useQuery({
    ...trpc.tracing.projects.queryOptions(),
    refetchInterval: (q) => (q.state.error ? false : 15_000),
  });

  if (projects.isPending)
    return (
      <div role="status" aria-label="Loading projects" className="space-y-2">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  if (projects.isError) return <Alert>Could not load the projects: {projects.error.message}</Alert>;

  const rows = projects.data.projects;
  const help = (
    <Card>
      <CardHeader title="Send traces" description="From any agent, deployed here or not." />
      <CardBody>
        <SendTracesHelp />
      </CardBody>
    </Card>
  );
  if (rows.length === 0)
    return (
      <div className="space-y-6">
        <div className="flex flex-col items-center rounded-lg border border-dashed border-zinc-300 px-6 py-10 text-center dark:border-zinc-700">
          <div className="rounded-full bg-zinc-100 p-3 dark:bg-zinc-800">
            <Activity aria-hidden className="size-6 text-zinc-500 dark:text-zinc-400" />
          </div>
          <h2 className="mt-4 text-base font-semibold">No tracing projects yet</h2>
          <p className="mt-1 max-w-md text-sm text-zinc-600 dark:text-zinc-400">
            Every deployment gets a project; an agent that sends runs to a new project name creates
            it.
          </p>
        </div>
        {help}
      </div>
    );

  return (
    <div className="space-y-6">
      <Table aria-label="Tracing projects">
        <thead>
          <tr>
            <Th>Project</Th>
            <Th>Deployment</Th>
            <Th className="text-right">Traces (24 h)</Th>
            <Th className="text-right">Error rate</Th>
            <Th>Last run</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <Tr key={p.id}>
              <Td className="max-w-[14rem] truncate">
                <Link href={`/tracing/${p.id}`} className={link}>
                  {p.name}
                </Link>
              </Td>
              <Td>
                {p.deployment ? (
                  <Link href={`/deployments/${p.deployment.id}/traces`} className={link}>
                    {p.deployment.name}
                  </Link>
                ) : (
                  <Badge>Detached</Badge>
                )}
              </Td>
              <Td className="text-right tabular-nums">{formatCount(p.traces_24h)}</Td>
              <Td className="text-right tabular-nums">
                {formatRate(p.traces_24h > 0 ? p.errors_24h / p.traces_24h : null)}
              </Td>
              <Td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                {p.last_run_time ? <RelativeTime iso={p.last_run_time} /> : "No runs"}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      {projects.data.truncated && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Showing the {rows.length} newest projects.
        </p>
      )}
      <details className="rounded-lg border border-zinc-200 bg-white px-5 py-3 dark:border-zinc-800 dark:bg-zinc-900/40">
        <summary className="cursor-pointer rounded-sm text-sm font-semibold focus-visible:outline-2 focus-visible:outline-blue-600">
          How to send traces
        </summary>
        <div className="mt-3">
          <SendTracesHelp />
        </div>
      </details>
    </div>
  );
}
