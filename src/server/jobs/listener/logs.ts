import type { KubeConfig } from "@kubernetes/client-node";
import {
  LOG_ANSWER_LINES_MAX,
  LOG_LINE_TEXT_MAX,
  type AnswerLogRequestInput,
  type ListenerLogRequest,
} from "@/schemas/listener-logs";
import { cutLine } from "@/lib/log-text";
import { readDeploymentLogs, type PodLogLine } from "@/server/cluster/pod-logs";
import { describeError, log } from "@/server/log";
import { ProtocolError, type ProtocolClient } from "./client";
import { FOLLOWS_MAX, followOne } from "./log-follow";

// A listener serves its deployments' runtime logs (contract 14.3): it long-polls Hangar for log
// requests and answers each with what its own cluster has, read by the same reader Hangar uses
// for its own clusters (server/cluster/pod-logs.ts), or follows it while a viewer asks
// (log-follow.ts). Nothing is read or sent unless asked.

/** Leaves room under Hangar's 1 MiB body limit for the JSON around the lines. */
const ANSWER_BYTES = 900_000;

/**
 * Cuts the answer to fit, keeping the end the request names; says whether it cut. A line over
 * the protocol's limit keeps its start and says it was cut (Hangar makes the text harmless).
 */
export function fitAnswer(
  lines: PodLogLine[],
  keep: "newest" | "oldest",
): { lines: PodLogLine[]; truncated: boolean } {
  const ordered = [...lines].sort((a, b) =>
    keep === "oldest" ? a.key.localeCompare(b.key) : b.key.localeCompare(a.key),
  );
  const kept: PodLogLine[] = [];
  let bytes = 0;
  for (const line of ordered) {
    const text = cutLine(line.text, LOG_LINE_TEXT_MAX);
    const size = Buffer.byteLength(text) + line.pod.length + line.container.length + 120;
    if (kept.length >= LOG_ANSWER_LINES_MAX || bytes + size > ANSWER_BYTES) break;
    bytes += size;
    kept.push({ ...line, text });
  }
  return { lines: kept, truncated: kept.length < lines.length };
}

async function answerOne(
  kubeconfig: KubeConfig,
  client: ProtocolClient,
  replicaId: string,
  request: ListenerLogRequest,
): Promise<void> {
  let answer: AnswerLogRequestInput;
  try {
    const read = await readDeploymentLogs(kubeconfig, {
      namespace: request.namespace,
      deploymentId: request.deployment_id,
      since: request.since ? new Date(request.since) : undefined,
      tailLines: request.tail_lines ?? undefined,
      pod: request.pod,
    });
    const fitted = fitAnswer(read.lines, request.keep);
    answer = { replica_id: replicaId, pods: read.pods, ...fitted, error: null };
  } catch (error) {
    answer = {
      replica_id: replicaId,
      pods: [],
      lines: [],
      truncated: false,
      error: (error as Error).message.slice(0, 4000),
    };
  }
  await client.answerLogRequest(request.request_id, answer);
  log.info("log request answered", {
    request_id: request.request_id,
    deployment_id: request.deployment_id,
    lines: answer.lines.length,
  });
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Runs until `signal` aborts; requests are answered side by side with applying work. */
export async function serveLogRequests(options: {
  kubeconfig: KubeConfig;
  client: ProtocolClient;
  replicaId: string;
  waitSeconds: number;
  signal: AbortSignal;
}): Promise<void> {
  const { kubeconfig, client, replicaId, signal } = options;
  const following = new Set<string>();
  while (!signal.aborted) {
    let requests: ListenerLogRequest[];
    try {
      requests = await client.claimLogRequests(replicaId, options.waitSeconds, signal);
    } catch (error) {
      if (signal.aborted) break;
      // An older Hangar without the route asks for no logs: look again now and then, quietly.
      const unsupported = error instanceof ProtocolError && error.status === 404;
      if (unsupported) log.info("this Hangar asks for no logs (no log-requests route)");
      else log.warn("could not reach Hangar for log requests", describeError(error));
      await pause(unsupported ? 60_000 : 2_000, signal);
      continue;
    }
    for (const request of requests) {
      if (request.follow) {
        if (following.has(request.request_id)) continue;
        if (following.size >= FOLLOWS_MAX) {
          log.warn("log follow not started: this replica follows as many as it may", {
            request_id: request.request_id,
            following: following.size,
          });
          continue;
        }
        following.add(request.request_id);
        void followOne(kubeconfig, client, replicaId, request, signal)
          .catch((error) => log.warn("log follow failed", describeError(error)))
          .finally(() => following.delete(request.request_id));
        continue;
      }
      answerOne(kubeconfig, client, replicaId, request).catch((error) =>
        log.warn("log request not answered", {
          request_id: request.request_id,
          ...describeError(error),
        }),
      );
    }
  }
}
