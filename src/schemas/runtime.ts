import { z } from "zod";
import { timestamp, uuid } from "./common";
import { logEntries, logEntry, logQueryBody } from "./deploy-logs";
import { replicaId } from "./listeners";

// What is running: the agent server's own logs from the cluster, and its live health
// (contract 11 and 5.7). No server imports here.

/** The runtime logs query: the deploy client's body, plus a replica filter for the dashboard. */
export const runtimeLogQuery = logQueryBody
  .extend({
    pod: z
      .string()
      .max(253)
      .nullish()
      .meta({ description: "Only this replica's lines (a pod name from `pods`)" }),
  })
  .meta({ id: "RuntimeLogQuery" });
export type RuntimeLogQuery = z.output<typeof runtimeLogQuery>;

export const runtimeLogEntry = logEntry
  .extend({
    pod: z.string().meta({ description: "The replica (pod) that printed it" }),
    container: z.string().meta({ description: "Its container: server, queue, ..." }),
    previous: z
      .boolean()
      .meta({ description: "Printed by the container's previous run (before a restart)" }),
  })
  .meta({ id: "RuntimeLogEntry" });
export type RuntimeLogEntry = z.infer<typeof runtimeLogEntry>;

/** GET .../logs/stream's query: which lines to follow. */
export const runtimeLogFollowQuery = z
  .object({
    level: z.enum(["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]).optional(),
    query: z.string().max(256).optional(),
    pod: z.string().max(253).optional(),
    since: timestamp
      .optional()
      .meta({ description: "Also the lines printed since this time (else only new ones)" }),
  })
  .meta({ id: "RuntimeLogFollowQuery" });

export const runtimePod = z
  .object({
    name: z.string(),
    component: z.string().nullable(),
    revision: z.number().int().nullable(),
    ready: z.boolean(),
    restarts: z.number().int(),
  })
  .meta({ id: "RuntimePod" });

export const runtimeLogs = logEntries
  .extend({
    logs: z.array(runtimeLogEntry),
    pods: z.array(runtimePod).meta({ description: "The replicas whose logs were read" }),
    source: z.string().meta({
      description: "Where the lines come from and how far back they go, in words",
    }),
  })
  .meta({ id: "RuntimeLogs" });
export type RuntimeLogs = z.infer<typeof runtimeLogs>;

export const runtimeTermination = z
  .object({
    reason: z.string().meta({ example: "OOMKilled" }),
    exit_code: z.number().int().nullable(),
    at: timestamp.nullable(),
    pod: z.string(),
    container: z.string().nullable(),
  })
  .meta({ id: "RuntimeTermination" });

export const runtimeEvent = z
  .object({
    at: timestamp.nullable(),
    reason: z.string(),
    message: z.string(),
    object: z.string().meta({ description: "e.g. Pod/agent-7d4b9c-x2k1p" }),
    count: z.number().int(),
  })
  .meta({ id: "RuntimeEvent" });

export const runtimeComponent = z
  .object({
    component: z.string().meta({ example: "server" }),
    ready: z.number().int(),
    desired: z.number().int(),
    restarts: z.number().int(),
  })
  .meta({ id: "RuntimeComponent" });

/** What the cluster reports about a deployment's active revision. */
export const runtimeObservation = z.object({
  healthy: z.boolean(),
  reason: z.string().nullable(),
  ready_replicas: z.number().int(),
  desired_replicas: z.number().int(),
  restarts: z.number().int(),
  last_termination: runtimeTermination.nullable(),
  components: z.array(runtimeComponent),
  events: z.array(runtimeEvent),
});
export type RuntimeObservation = z.infer<typeof runtimeObservation>;

export const runtimeState = runtimeObservation
  .extend({
    running: z.boolean().meta({
      description: "Whether anything runs at all (false: dry run, or nothing deployed yet)",
    }),
    source: z.enum(["kubernetes", "listener", "dry_run", "none"]).meta({
      description: "Who reports it: Hangar's watch of its cluster, the listener, or nobody",
    }),
    healthy: z.boolean().nullable().meta({ description: "null: not observed (yet)" }),
    summary: z.string().meta({ example: "2/2 ready · 3 restarts · OOMKilled 4 min ago" }),
    observed_at: timestamp.nullable().meta({ description: "When the state last changed" }),
  })
  .meta({ id: "RuntimeState" });
export type RuntimeState = z.infer<typeof runtimeState>;

export const deploymentParams = z.object({ deployment_id: uuid });

// The listener protocol's additions (contract 14.3): the listener judges its cluster's pods as
// Hangar's worker does, and reports what changed.

export const listenerRuntimeTargetsBody = z
  .object({
    replica_id: replicaId,
    deployment_ids: z.array(uuid).max(1000).nullish().meta({
      description: "Only these (default: every deployment of the listener that runs)",
    }),
  })
  .meta({ id: "ListenerRuntimeTargetsInput" });

export const listenerRuntimeTargets = z
  .object({
    deployments: z.array(z.object({ deployment_id: uuid, revision_number: z.number().int() })),
  })
  .meta({ id: "ListenerRuntimeTargets" });

export const listenerRuntimeReportBody = z
  .object({
    replica_id: replicaId,
    observation: runtimeObservation.extend({
      reason: z.string().max(4096).nullable(),
      components: z.array(runtimeComponent).max(20),
      events: z.array(runtimeEvent).max(20),
    }),
  })
  .meta({ id: "ListenerRuntimeReport" });
export type ListenerRuntimeReport = z.infer<typeof listenerRuntimeReportBody>;

export const listenerRuntimeAnswer = z
  .object({ deployment_id: uuid, status: z.string(), changed: z.boolean() })
  .meta({ id: "ListenerRuntimeAnswer" });
