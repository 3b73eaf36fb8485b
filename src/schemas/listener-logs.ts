import { z } from "zod";
import { timestamp, uuid } from "./common";
import { claimWorkBody, replicaId } from "./listeners";

// Runtime logs through a listener (contract 14.3): Hangar asks, the listener reads its own
// cluster with the reader managed clusters use and answers. No server imports here.

/** What to read: the same parameters Hangar's own reader takes (server/cluster/pod-logs.ts). */
export const listenerLogRead = z
  .object({
    namespace: z.string(),
    deployment_id: uuid,
    since: timestamp.nullable().meta({ description: "Lines at or after this time" }),
    tail_lines: z.number().int().nullable().meta({
      description: "At most this many lines per container, the newest",
    }),
    pod: z.string().nullable().meta({ description: "Only this replica (pod name)" }),
    keep: z.enum(["newest", "oldest"]).meta({
      description: "Which end to keep when the answer must be cut to fit (1 MiB)",
    }),
    follow: z.boolean().default(false).meta({
      description:
        "Follow the logs instead of reading them once: send lines as they are printed to /v2/listener/log-requests/{request_id}/lines until Hangar answers 404 (only to replicas whose poll says `follow: true`)",
    }),
  })
  .meta({ id: "ListenerLogRead" });
export type ListenerLogRead = z.infer<typeof listenerLogRead>;

export const listenerLogRequest = listenerLogRead
  .extend({ request_id: uuid, expires_at: timestamp })
  .meta({ id: "ListenerLogRequest" });
export type ListenerLogRequest = z.infer<typeof listenerLogRequest>;

export const claimLogRequestsBody = claimWorkBody
  .extend({
    follow: z.boolean().optional().meta({
      description:
        "This replica follows logs (requests with `follow: true`); without it Hangar reads the listener's deployments again every 2 s instead of streaming them",
    }),
  })
  .meta({ id: "ClaimListenerLogRequests" });
export type ClaimLogRequestsInput = z.infer<typeof claimLogRequestsBody>;

export const claimLogRequestsAnswer = z
  .object({ log_requests: z.array(listenerLogRequest) })
  .meta({ id: "ListenerLogRequests" });

/** The most bytes of line text an answer may carry per line (longer lines are cut). */
export const LOG_LINE_TEXT_MAX = 16_384;
export const LOG_ANSWER_LINES_MAX = 20_000;

export const listenerLogLine = z.object({
  key: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/, "key is an RFC 3339 time, 9 digits"),
  id: z.string().regex(/^[\w-]{1,64}$/),
  pod: z.string().min(1).max(253),
  container: z.string().min(1).max(253),
  previous: z.boolean(),
  text: z.string().max(LOG_LINE_TEXT_MAX),
});
export type ListenerLogLine = z.infer<typeof listenerLogLine>;

export const listenerLogPod = z.object({
  name: z.string().min(1).max(253),
  component: z.string().max(253).nullable(),
  revision: z.number().int().nullable(),
  ready: z.boolean(),
  restarts: z.number().int().min(0),
  containers: z.array(z.string().max(253)).max(50),
});

export const answerLogRequestBody = z
  .object({
    replica_id: replicaId,
    lines: z.array(listenerLogLine).max(LOG_ANSWER_LINES_MAX).default([]),
    pods: z.array(listenerLogPod).max(1000).default([]),
    truncated: z.boolean().default(false).meta({
      description: "Lines were left out to keep the answer under 1 MiB",
    }),
    error: z.string().max(4096).nullish().meta({
      description: "The listener could not read its cluster: why (deploy_logs answers 502)",
    }),
  })
  .meta({ id: "ListenerLogAnswer" });
export type AnswerLogRequestInput = z.infer<typeof answerLogRequestBody>;

export const listenerLogRequestParams = z.object({ request_id: uuid });

export const answerLogRequestResponse = z
  .object({ request_id: uuid, accepted: z.literal(true) })
  .meta({ id: "ListenerLogAnswerAccepted" });

/** The most lines one post of a followed log may carry. */
export const LOG_FOLLOW_LINES_MAX = 1_000;

export const followLinesBody = z
  .object({
    replica_id: replicaId,
    lines: z.array(listenerLogLine).max(LOG_FOLLOW_LINES_MAX).default([]),
    dropped: z.number().int().min(0).default(0).meta({
      description: "Lines printed since the last post that the listener did not send (too many)",
    }),
  })
  .meta({ id: "ListenerLogFollowLines" });
export type FollowLinesInput = z.infer<typeof followLinesBody>;

export const followLinesResponse = z
  .object({ request_id: uuid, following: z.literal(true) })
  .meta({ id: "ListenerLogFollowAccepted" });
