import { env } from "@/env";
import type { RuntimeLogEntry } from "@/schemas/runtime";
import type { Actor } from "@/server/auth/actor";
import type { PodLogLine } from "@/server/cluster/pod-logs";
import type { Db } from "@/server/db";
import { conflict } from "@/server/errors";
import { followThroughListener } from "@/server/services/listeners/log-follow";
import { followsLogs, offline } from "@/server/services/listeners/log-requests";
import { isOnline } from "@/server/services/listeners/serialize";
import { levelOf, messageOf } from "./log-level";
import { entryOf, placeOf } from "./logs";

// A deployment's runtime logs followed live (GET /v2/deployments/{id}/logs/stream): the
// cluster's own log follow for each running container (cluster/pod-log-follow.ts), filtered as
// deploy_logs filters, harmless and cut as every log line Hangar serves. Bounded: at most
// LINES_PER_SECOND lines a second and QUEUE_LINES lines waiting for a slow reader; the others are
// counted and said (`dropped`), never buffered. A deployment on a listener is followed by its
// listener in its own cluster (contract 14.3, services/listeners/log-follow.ts), the same way; a
// listener too old to follow: 409, read it with deploy_logs instead.

export const LINES_PER_SECOND = 200;
const QUEUE_LINES = 1_000;

export type FollowEvent =
  | { kind: "log"; entry: RuntimeLogEntry }
  | { kind: "dropped"; count: number }
  /** Nothing for IDLE_MS: a reader may say it is still there. */
  | { kind: "idle" };

const IDLE_MS = 15_000;

export interface FollowFilters {
  level?: string | null;
  query?: string | null;
  pod?: string | null;
  /** Lines at or after this time (the newest the reader already has); else from now on. */
  since?: string | null;
}

export const LISTENER_FOLLOW =
  "This deployment runs on a listener of a version that does not follow logs (it reads them only when asked): follow it by reading deploy_logs again (the dashboard does every 2 s), or upgrade the listener.";

/** The lines as they are printed, until `signal` aborts (or the reader stops iterating). */
export async function followRuntimeLogs(
  db: Db,
  actor: Actor,
  deploymentId: string,
  filters: FollowFilters,
  signal: AbortSignal,
): Promise<AsyncIterable<FollowEvent>> {
  const place = await placeOf(db, actor, deploymentId, signal);
  const { kubeconfig, listener } = place;
  if (listener && !followsLogs(listener)) throw conflict(LISTENER_FOLLOW);
  if (listener && !isOnline(listener.lastSeenAt)) throw offline(listener);
  const needle = filters.query?.toLowerCase();
  const queue: FollowEvent[] = [];
  let wake: (() => void) | null = null;
  let second = 0;
  let inSecond = 0;
  let dropped = 0;
  /** When the stream began, as a line's key (nine fraction digits). */
  let startedKey = "";
  const notify = () => {
    wake?.();
    wake = null;
  };

  const lost = (count: number) => {
    dropped += count;
    notify();
  };

  const accept = (line: PodLogLine) => {
    const level = levelOf(line.text);
    const message = messageOf(line.text);
    if (filters.level && level !== filters.level) return;
    if (needle && !message.toLowerCase().includes(needle)) return;
    // Lines from before the stream began (asked for with `since`) are what the reader missed
    // between its read and the stream: bounded by the queue, not by the rate.
    if (line.key < startedKey) {
      if (queue.length >= QUEUE_LINES) {
        dropped += 1;
        return notify();
      }
      return push(line, level, message);
    }
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      inSecond = 0;
    }
    if (++inSecond > LINES_PER_SECOND || queue.length >= QUEUE_LINES) {
      dropped += 1;
      return notify();
    }
    push(line, level, message);
  };

  const push = (line: PodLogLine, level: RuntimeLogEntry["level"], message: string) => {
    // A follow reads each container's current run only.
    queue.push({ kind: "log", entry: entryOf({ ...line, previous: false }, level, message) });
    notify();
  };

  const stop = new AbortController();
  const done = AbortSignal.any([signal, stop.signal]);
  done.addEventListener("abort", notify, { once: true });

  return {
    async *[Symbol.asyncIterator]() {
      // Started by the first read: an answer nobody reads opens no follow in the cluster.
      startedKey = new Date().toISOString().replace("Z", "000000Z");
      const target = {
        namespace: place.namespace,
        deploymentId: place.deployment.id,
        pod: filters.pod,
        since: filters.since ? new Date(filters.since) : undefined,
      };
      const following = listener
        ? followThroughListener(db, listener, target, accept, lost, done)
        : import("@/server/cluster/pod-log-follow").then(({ followDeploymentLogs }) =>
            followDeploymentLogs(
              kubeconfig!,
              { ...target, maxLine: env.HANGAR_LOG_MAX_LINE },
              accept,
              done,
            ),
          );
      try {
        while (!done.aborted) {
          if (dropped) {
            yield { kind: "dropped", count: dropped };
            dropped = 0;
          }
          const next = queue.shift();
          if (next) {
            yield next;
            continue;
          }
          const idle = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), IDLE_MS);
            wake = () => (clearTimeout(timer), resolve(false));
          });
          if (idle && !done.aborted) yield { kind: "idle" };
        }
      } finally {
        stop.abort();
        await following.catch(() => undefined);
      }
    },
  };
}
