import { eventStreamResponse } from "./responses";
import type { Db } from "@/server/db";
import { isTerminal } from "@/schemas/revision-states";
import { describeError, log } from "@/server/log";
import { findRevisionOf, logLinesAfter, toLogLine } from "@/server/services/revisions/logs-list";
import { revisionEndpoints } from "./endpoints/revisions";
import { route } from "./route";

// GET .../logs/stream: a revision's log as server-sent events. The table is polled (every
// POLL_MS) rather than LISTENed to, so it works the same on the embedded database.

const POLL_MS = 500;
const BATCH = 500;
const HEARTBEAT_MS = 15_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

function events(db: Db, revisionId: string, from: number, clientSignal: AbortSignal) {
  const encoder = new TextEncoder();
  const cancelled = new AbortController();
  const signal = AbortSignal.any([clientSignal, cancelled.signal]);
  return new ReadableStream<Uint8Array>({
    cancel: () => cancelled.abort(),
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      let last = from;
      let quietSince = Date.now();
      try {
        while (!signal.aborted) {
          // Status before lines: a final status commits with its last lines, so none is missed.
          const revision = await db.revision.findUnique({
            where: { id: revisionId },
            select: { status: true },
          });
          const rows = await logLinesAfter(db, revisionId, last, BATCH);
          for (const row of rows) {
            const line = toLogLine(row);
            send(`id: ${line.id}\nevent: log\ndata: ${JSON.stringify(line)}\n\n`);
            last = line.id;
          }
          if (rows.length === BATCH) continue;
          if (!revision || isTerminal(revision.status)) {
            send(`event: end\ndata: ${JSON.stringify({ status: revision?.status ?? null })}\n\n`);
            break;
          }
          if (rows.length) quietSince = Date.now();
          else if (Date.now() - quietSince > HEARTBEAT_MS) {
            send(": keep-alive\n\n");
            quietSince = Date.now();
          }
          await sleep(POLL_MS, signal);
        }
      } catch (error) {
        if (!signal.aborted) log.warn("revision log stream failed", describeError(error));
      } finally {
        try {
          controller.close();
        } catch {
          // Already closed: the client went away.
        }
      }
    },
  });
}

export const streamRevisionLogs = route(
  revisionEndpoints.logStream,
  async ({ db, actor, params, query, headers, requestId, signal }) => {
    const revision = await findRevisionOf(db, actor, params.deployment_id, params.revision_id);
    const lastEventId = Number(headers.get("last-event-id"));
    const from = Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : query.after;
    return eventStreamResponse(events(db, revision.id, from, signal), requestId);
  },
);
