"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { DescriptionList } from "@/components/ui/description-list";
import { Skeleton } from "@/components/ui/skeleton";
import { useTRPC } from "@/trpc/react";
import { formatCount, formatLatency } from "./format";
import { JsonView } from "./json-view";
import { RunFeedback } from "./run-feedback";
import { RunStatusBadge } from "./run-status";
import type { RunStatus } from "@/schemas/tracing-dashboard";

// One run of a trace: its figures, error, inputs, outputs, metadata and feedback (run-feedback).

const fullTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium" });

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      {children}
    </section>
  );
}

const text = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => (typeof v === "number" ? v : null);

export function RunDetail({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const run = useQuery(trpc.tracing.run.queryOptions({ id: runId }));

  if (run.isPending)
    return (
      <div role="status" aria-label="Loading the run" className="space-y-3">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  if (run.isError) return <Alert>Could not load the run: {run.error.message}</Alert>;

  const r = run.data;
  const start = text(r.start_time);
  const end = text(r.end_time);
  const latency = start && end ? (Date.parse(end) - Date.parse(start)) / 1000 : null;
  const extra = (r.extra ?? {}) as Record<string, unknown>;
  const metadata = extra.metadata;
  const error = text(r.error);

  return (
    <article aria-labelledby="run-detail-title" className="space-y-5">
      <header className="space-y-2">
        <h3
          id="run-detail-title"
          className="flex flex-wrap items-center gap-2 text-base font-semibold"
        >
          <span className="break-all">{text(r.name) || "(unnamed)"}</span>
          <RunStatusBadge status={r.status as RunStatus} />
        </h3>
        <DescriptionList
          items={[
            { label: "Type", value: text(r.run_type) },
            { label: "Started", value: start ? fullTime.format(new Date(start)) : null },
            { label: "Latency", value: formatLatency(latency) },
            {
              label: "Tokens",
              value:
                num(r.total_tokens) === null
                  ? null
                  : `${formatCount(num(r.total_tokens))} (${formatCount(num(r.prompt_tokens))} prompt, ${formatCount(num(r.completion_tokens))} completion)`,
            },
            { label: "Run id", value: <code className="text-xs break-all">{String(r.id)}</code> },
          ]}
        />
      </header>
      {error && (
        <Section title="Error">
          <pre
            tabIndex={0}
            aria-label="Error"
            className="max-h-64 overflow-auto rounded-md border border-red-200 bg-red-50 p-3 text-xs whitespace-pre-wrap text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200"
          >
            {error.length > 20_000 ? `${error.slice(0, 20_000)}…` : error}
          </pre>
        </Section>
      )}
      <Section title="Inputs">
        <JsonView label="Inputs" value={r.inputs ?? {}} />
      </Section>
      <Section title="Outputs">
        {r.outputs === null || r.outputs === undefined ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {r.status === "pending" ? "Not finished yet." : "None."}
          </p>
        ) : (
          <JsonView label="Outputs" value={r.outputs} />
        )}
      </Section>
      {metadata !== undefined && metadata !== null && (
        <Section title="Metadata">
          <JsonView label="Metadata" value={metadata} />
        </Section>
      )}
      <Section title="Feedback">
        <RunFeedback runId={runId} />
      </Section>
    </article>
  );
}
