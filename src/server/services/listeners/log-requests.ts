import type { Listener } from "@/generated/prisma/client";
import { env } from "@/env";
import type {
  AnswerLogRequestInput,
  ClaimLogRequestsInput,
  ListenerLogRead,
  ListenerLogRequest,
} from "@/schemas/listener-logs";
import type { LogRead, PodLogLine, PodSummary } from "@/server/cluster/pod-logs";
import type { Db, DbClient } from "@/server/db";
import { AppError, conflict, notFound } from "@/server/errors";
import { notifyChannel } from "@/server/notify-channel";
import { isOnline } from "./serialize";

// Runtime logs of a listener's deployment (contract 14.3): Hangar records what it wants read
// (a row that lives seconds), wakes the listener's log poll, and waits for the answer; the
// listener reads its own cluster and posts the lines back. Nothing leaves the cluster unasked:
// a listener only reads what a row asks, and only rows of its own deployments. The answer is
// read once and deleted (Hangar keeps no copy).

/** Wakes a listener's log-request polls (key: listener id). */
export const asked = notifyChannel("hangar_listener_log_requests", "listener log request channel");
/** Wakes the request that waits for an answer, or a follow's lines (key: request id). */
export const answered = notifyChannel("hangar_listener_log_answers", "listener log answer channel");

/** A replica that took a request and went quiet for this long leaves it to another. */
const RECLAIM_SECONDS = 3;
/** The same for a followed log, whose replica posts at least every few seconds (log-follow.ts). */
const RECLAIM_FOLLOW_SECONDS = 12;
/** At most this many requests per answer of the poll. */
const BATCH = 20;

export interface ListenerLogAnswer {
  pods: PodSummary[];
  lines: PodLogLine[];
  truncated: boolean;
}

/** How long a replica's word that it follows holds: a few of its polls (at most 60 s apart). */
const FOLLOWS_FOR_MS = 90_000;

/** Whether a replica of the listener said lately that it follows logs (contract 14.3). */
export const followsLogs = (listener: Listener, now = Date.now()) =>
  listener.followsLogsAt !== null && now - listener.followsLogsAt.getTime() < FOLLOWS_FOR_MS;

export const offline = (listener: Listener) =>
  new AppError(
    "unavailable",
    `Listener ${listener.computeId} (${listener.id}) is offline (${
      listener.lastSeenAt
        ? `last heard from ${listener.lastSeenAt.toISOString()}`
        : "never heard from"
    }): its deployments' runtime logs are read by it, in its cluster, when it is running. Start the listener again (README, Self-hosted) and ask again.`,
  );

/**
 * Asks the listener to read `read` from its cluster and waits (HANGAR_LISTENER_LOG_WAIT_SECONDS)
 * for its answer. Offline listener or no answer in time → 503, the reader's failure → 502.
 */
export async function readThroughListener(
  db: Db,
  listener: Listener,
  read: LogRead & { keep: ListenerLogRead["keep"] },
  signal?: AbortSignal,
): Promise<ListenerLogAnswer> {
  if (!isOnline(listener.lastSeenAt)) throw offline(listener);
  const wait = env.HANGAR_LISTENER_LOG_WAIT_SECONDS;
  const query: ListenerLogRead = {
    namespace: read.namespace,
    deployment_id: read.deploymentId,
    since: read.since?.toISOString() ?? null,
    tail_lines: read.tailLines ?? null,
    pod: read.pod ?? null,
    keep: read.keep,
    follow: false,
  };
  await db.listenerLogRequest.deleteMany({
    where: { expiresAt: { lt: new Date(Date.now() - 60_000) } },
  });
  const row = await db.listenerLogRequest.create({
    data: {
      listenerId: listener.id,
      deploymentId: read.deploymentId,
      query,
      expiresAt: new Date(Date.now() + (wait + 2) * 1000),
    },
    select: { id: true },
  });
  const events = await answered.subscribe(row.id);
  try {
    await asked.notify(db, listener.id);
    const deadline = Date.now() + wait * 1000;
    for (;;) {
      const found = await db.listenerLogRequest.findUnique({
        where: { id: row.id },
        select: { answeredAt: true, answer: true },
      });
      if (found?.answeredAt) return unpack(listener, found.answer);
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted)
        throw new AppError(
          "unavailable",
          `Listener ${listener.computeId} (${listener.id}) did not answer within ${wait} s: it reads this deployment's runtime logs in its cluster (it may be busy, or an older version that does not serve logs). Ask again.`,
        );
      await events.next(left, signal);
    }
  } finally {
    events.close();
    await db.listenerLogRequest.deleteMany({ where: { id: row.id } });
  }
}

function unpack(listener: Listener, answer: unknown): ListenerLogAnswer {
  const body = answer as AnswerLogRequestInput;
  if (body.error)
    throw new AppError(
      "bad_gateway",
      `Could not read the deployment's logs from the cluster: listener ${listener.computeId} answered: ${body.error}`,
    );
  return { pods: body.pods, lines: body.lines, truncated: body.truncated };
}

interface Claimed {
  id: string;
  deployment_id: string;
  query: ListenerLogRead;
  expires_at: Date;
}

async function claimSome(db: DbClient, listenerId: string, replicaId: string, follows: boolean) {
  // A follow goes only to a replica that follows; one whose replica went quiet, to another.
  return db.$queryRaw<Claimed[]>`
    WITH picked AS (
      SELECT id FROM listener_log_requests
      WHERE listener_id = ${listenerId}::uuid AND answered_at IS NULL AND expires_at > now()
        AND (${follows} OR (query->>'follow') IS DISTINCT FROM 'true')
        AND (claimed_by IS NULL
             OR claimed_at < now() - make_interval(secs => CASE WHEN query->>'follow' = 'true'
                  THEN ${RECLAIM_FOLLOW_SECONDS} ELSE ${RECLAIM_SECONDS} END::double precision))
      ORDER BY created_at, id
      LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE listener_log_requests r SET claimed_by = ${replicaId}, claimed_at = now()
    FROM picked WHERE r.id = picked.id
    RETURNING r.id, r.deployment_id, r.query, r.expires_at`;
}

/**
 * The listener's long poll for log requests: answers at once with the waiting requests of its
 * deployments (taken by this replica), else waits until one is made or the wait ends.
 */
export async function claimLogRequests(
  db: Db,
  listener: Listener,
  input: ClaimLogRequestsInput,
  signal?: AbortSignal,
): Promise<{ log_requests: ListenerLogRequest[] }> {
  const waitSeconds = Math.min(
    input.wait_seconds ?? env.HANGAR_LISTENER_POLL_SECONDS,
    env.HANGAR_LISTENER_POLL_SECONDS,
  );
  const deadline = Date.now() + waitSeconds * 1000;
  const follows = input.follow === true;
  // A replica that follows, lately, makes Hangar stream this listener's deployments (followsLogs).
  if (follows)
    await db.$executeRaw`
      UPDATE listeners SET follows_logs_at = now()
      WHERE id = ${listener.id}::uuid
        AND (follows_logs_at IS NULL OR follows_logs_at < now() - interval '10 seconds')`;
  const events = await asked.subscribe(listener.id);
  try {
    for (;;) {
      if (signal?.aborted) return { log_requests: [] };
      const rows = await claimSome(db, listener.id, input.replica_id, follows);
      if (rows.length > 0)
        return {
          log_requests: rows.map((r) => ({
            ...r.query,
            follow: r.query.follow ?? false,
            request_id: r.id,
            expires_at: r.expires_at.toISOString(),
          })),
        };
      const left = deadline - Date.now();
      if (left <= 0) return { log_requests: [] };
      await events.next(left, signal);
    }
  } finally {
    events.close();
  }
}

/** The listener's answer to one of its requests; another listener's (or unknown) → 404. */
export async function answerLogRequest(
  db: Db,
  listener: Listener,
  requestId: string,
  input: AnswerLogRequestInput,
): Promise<{ request_id: string; accepted: true }> {
  // Kept for the asker only: the lines, the pods, whether they were cut, or the reader's error.
  const answer = {
    lines: input.lines,
    pods: input.pods,
    truncated: input.truncated,
    error: input.error ?? null,
  };
  await db.$transaction(async (tx) => {
    const row = await tx.listenerLogRequest.findFirst({
      where: { id: requestId, listenerId: listener.id },
      select: { id: true },
    });
    if (!row) throw notFound(`Log request ${requestId} not found.`);
    const done = await tx.listenerLogRequest.updateMany({
      where: { id: requestId, answeredAt: null, expiresAt: { gt: new Date() } },
      data: { answeredAt: new Date(), answer },
    });
    if (done.count === 0)
      throw conflict(`Log request ${requestId} is no longer waiting (answered or expired).`);
    await answered.notify(tx, requestId);
  });
  return { request_id: requestId, accepted: true };
}
