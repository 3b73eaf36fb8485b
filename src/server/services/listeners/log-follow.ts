import type { Listener } from "@/generated/prisma/client";
import type { FollowLinesInput, ListenerLogLine, ListenerLogRead } from "@/schemas/listener-logs";
import type { Db } from "@/server/db";
import { conflict, notFound } from "@/server/errors";
import { answered, asked } from "./log-requests";

// Runtime logs of a listener's deployment followed live (contract 14.3): the viewer's instance
// records a log request with `follow: true` and keeps it alive while the viewer stays; a replica
// of the listener that follows takes it, follows its own cluster and posts the lines as they are
// printed (at least every few seconds, nothing new or not); they wait in listener_log_chunks until
// the viewer's instance (any instance: LISTEN/NOTIFY) takes and deletes them. When the viewer
// leaves the request goes, with whatever waits, and the replica's next post is a 404: it stops.

/** A follow nobody renews is gone this long after its last renewal (the viewer's instance died). */
const FOLLOW_LEASE_SECONDS = 30;
const RENEW_MS = 10_000;
/** Lines waiting for a viewer's instance that does not take them; past it, counted as dropped. */
const PENDING_LINES_MAX = 5_000;

export interface ListenerFollowTarget {
  namespace: string;
  deploymentId: string;
  pod?: string | null;
  since?: Date;
}

/**
 * Calls `onLine` with each line the listener sends and `onDropped` with what it could not,
 * until `signal` aborts; resolves then, with the request gone.
 */
export async function followThroughListener(
  db: Db,
  listener: Listener,
  target: ListenerFollowTarget,
  onLine: (line: ListenerLogLine) => void,
  onDropped: (count: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const query: ListenerLogRead = {
    namespace: target.namespace,
    deployment_id: target.deploymentId,
    since: target.since?.toISOString() ?? null,
    tail_lines: null,
    pod: target.pod ?? null,
    keep: "oldest",
    follow: true,
  };
  const lease = () => new Date(Date.now() + FOLLOW_LEASE_SECONDS * 1000);
  const row = await db.listenerLogRequest.create({
    data: {
      listenerId: listener.id,
      deploymentId: target.deploymentId,
      query,
      expiresAt: lease(),
    },
    select: { id: true },
  });
  const events = await answered.subscribe(row.id);
  try {
    await asked.notify(db, listener.id);
    let renewed = Date.now();
    while (!signal.aborted) {
      const chunks = await db.$queryRaw<
        { id: bigint; lines: ListenerLogLine[]; dropped: number }[]
      >`
        DELETE FROM listener_log_chunks WHERE request_id = ${row.id}::uuid
        RETURNING id, lines, dropped`;
      chunks.sort((a, b) => (a.id < b.id ? -1 : 1));
      for (const chunk of chunks) {
        if (chunk.dropped) onDropped(chunk.dropped);
        for (const line of chunk.lines) onLine(line);
      }
      if (Date.now() - renewed >= RENEW_MS) {
        renewed = Date.now();
        await db.listenerLogRequest.updateMany({
          where: { id: row.id },
          data: { expiresAt: lease() },
        });
      }
      await events.next(RENEW_MS, signal);
    }
  } finally {
    events.close();
    // Its lines go with it (cascade); the replica's next post is answered 404.
    await db.listenerLogRequest.deleteMany({ where: { id: row.id } }).catch(() => undefined);
  }
}

/**
 * A replica's lines for a followed request it holds. A request that is gone (the viewer left),
 * not a follow or not of this listener → 404; one another replica holds → 409.
 */
export async function postFollowLines(
  db: Db,
  listener: Listener,
  requestId: string,
  input: FollowLinesInput,
): Promise<{ request_id: string; following: true }> {
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ claimed_by: string | null; pending: number }[]>`
      SELECT r.claimed_by,
             (SELECT coalesce(sum(jsonb_array_length(c.lines)), 0)::int
                FROM listener_log_chunks c WHERE c.request_id = r.id) AS pending
      FROM listener_log_requests r
      WHERE r.id = ${requestId}::uuid AND r.listener_id = ${listener.id}::uuid
        AND r.query->>'follow' = 'true' AND r.expires_at > now()
      FOR UPDATE OF r`;
    const row = rows[0];
    if (!row) throw notFound(`Log request ${requestId} not found.`);
    if (row.claimed_by !== input.replica_id)
      throw conflict(
        `Replica ${row.claimed_by ?? "(none)"} follows log request ${requestId}; stop following it.`,
      );
    await tx.listenerLogRequest.update({
      where: { id: requestId },
      data: { claimedAt: new Date() },
    });
    const full = row.pending + input.lines.length > PENDING_LINES_MAX;
    const lines = full ? [] : input.lines;
    const dropped = input.dropped + (full ? input.lines.length : 0);
    if (lines.length === 0 && dropped === 0) return;
    await tx.listenerLogChunk.create({ data: { requestId, lines, dropped } });
    await answered.notify(tx, requestId);
  });
  return { request_id: requestId, following: true };
}
