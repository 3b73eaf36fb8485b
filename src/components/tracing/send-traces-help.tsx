"use client";

import { useHydrated } from "@/components/ui/use-hydrated";

// How an agent sends traces here: the tracing SDK's environment, or an OpenTelemetry exporter.

export function SendTracesHelp({ project }: { project?: string }) {
  const hydrated = useHydrated();
  const origin = hydrated ? window.location.origin : "https://<this Hangar>";
  const code =
    "block overflow-x-auto rounded-md bg-zinc-100 p-3 font-mono text-xs leading-5 whitespace-pre dark:bg-zinc-950";
  return (
    <div className="space-y-3 text-left text-sm text-zinc-700 dark:text-zinc-300">
      <p>
        Point the tracing SDK (<code>langsmith</code>, npm or PyPI) at Hangar with a workspace API
        key (editor role) in the agent&apos;s environment:
      </p>
      <pre tabIndex={0} aria-label="Tracing SDK environment" className={code}>
        {`LANGSMITH_TRACING=true
LANGSMITH_ENDPOINT=${origin}/api/v1
LANGSMITH_API_KEY=hgr_...
LANGSMITH_PROJECT=${project ?? "<project name>"}`}
      </pre>
      <p>Or export OpenTelemetry spans (OTLP over HTTP, protobuf or JSON):</p>
      <pre tabIndex={0} aria-label="OpenTelemetry exporter environment" className={code}>
        {`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/api/v1/otel/v1/traces
OTEL_EXPORTER_OTLP_TRACES_HEADERS="x-api-key=hgr_...,Langsmith-Project=${project ?? "<project name>"}"`}
      </pre>
      <p className="text-zinc-600 dark:text-zinc-400">
        A project named by a run that does not exist yet is created on its first run.
      </p>
    </div>
  );
}
