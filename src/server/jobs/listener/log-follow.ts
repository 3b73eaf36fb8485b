import type { KubeConfig } from "@kubernetes/client-node";
import {
  LOG_FOLLOW_LINES_MAX,
  LOG_LINE_TEXT_MAX,
  type ListenerLogRequest,
} from "@/schemas/listener-logs";
import { cutLine } from "@/lib/log-text";
import { followDeploymentLogs } from "@/server/cluster/pod-log-follow";
import type { PodLogLine } from "@/server/cluster/pod-logs";
import { describeError, log } from "@/server/log";
import { ProtocolError, type ProtocolClient } from "./client";

// A listener follows one of its deployments' runtime logs while a viewer in Hangar asks it to
// (contract 14.3, a log request with `follow: true`): the cluster's own log follow, the same one
// Hangar uses for its own clusters, its lines posted every FLUSH_MS as they come (and an empty
// post every HEARTBEAT_MS, which keeps the request ours and tells us whether the viewer is still
// there). Hangar's 404 or 409 — the viewer left, or another replica took it — ends it; so does
// losing Hangar for GIVE_UP_MS. Bounded: what waits between posts stays under one post's lines
// and bytes; the rest is counted and sent as `dropped`.

const FLUSH_MS = 500;
const HEARTBEAT_MS = 3_000;
const GIVE_UP_MS = 30_000;
/** Room under Hangar's 1 MiB body limit for the JSON around the lines. */
const POST_BYTES = 900_000;
/** Follows one replica keeps at once; more wait for another replica, or go unanswered. */
export const FOLLOWS_MAX = 25;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Follows `request` until Hangar says stop, Hangar is gone too long, or `signal` aborts. */
export async function followOne(
  kubeconfig: KubeConfig,
  client: ProtocolClient,
  replicaId: string,
  request: ListenerLogRequest,
  signal: AbortSignal,
): Promise<void> {
  const stop = new AbortController();
  const done = AbortSignal.any([signal, stop.signal]);
  let batch: PodLogLine[] = [];
  let bytes = 0;
  let dropped = 0;
  const accept = (line: PodLogLine) => {
    const text = cutLine(line.text, LOG_LINE_TEXT_MAX);
    const size = Buffer.byteLength(text) + line.pod.length + line.container.length + 120;
    if (batch.length >= LOG_FOLLOW_LINES_MAX || bytes + size > POST_BYTES) return void dropped++;
    bytes += size;
    batch.push({ ...line, text });
  };
  const following = followDeploymentLogs(
    kubeconfig,
    {
      namespace: request.namespace,
      deploymentId: request.deployment_id,
      pod: request.pod,
      since: request.since ? new Date(request.since) : undefined,
      maxLine: LOG_LINE_TEXT_MAX,
    },
    accept,
    done,
  );
  log.info("log follow started", {
    request_id: request.request_id,
    deployment_id: request.deployment_id,
  });
  let lastPost = 0;
  let failingSince = 0;
  let why = "stopped";
  try {
    while (!done.aborted) {
      if (lastPost) await pause(FLUSH_MS, done);
      if (done.aborted) break;
      if (!batch.length && !dropped && Date.now() - lastPost < HEARTBEAT_MS) continue;
      const lines = batch;
      const lost = dropped;
      batch = [];
      bytes = 0;
      dropped = 0;
      try {
        await client.followLines(request.request_id, {
          replica_id: replicaId,
          lines,
          dropped: lost,
        });
        lastPost = Date.now();
        failingSince = 0;
      } catch (error) {
        if (error instanceof ProtocolError && (error.status === 404 || error.status === 409)) {
          why = error.status === 404 ? "the viewer left" : "another replica follows it";
          break;
        }
        // Not sent: counted, and said with the next post that gets through.
        dropped += lost + lines.length;
        failingSince ||= Date.now();
        lastPost = Date.now();
        if (Date.now() - failingSince > GIVE_UP_MS) {
          why = "Hangar could not be reached";
          log.warn("log follow: Hangar could not be reached", describeError(error));
          break;
        }
      }
    }
  } finally {
    stop.abort();
    await following.catch(() => undefined);
    log.info("log follow ended", { request_id: request.request_id, why });
  }
}
