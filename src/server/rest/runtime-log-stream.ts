import { REQUEST_ID_HEADER } from "@/server/request-id";
import { eventStreamResponse } from "./responses";
import { describeError, log } from "@/server/log";
import { followRuntimeLogs } from "@/server/services/runtime/log-follow";
import { downloadRuntimeLogs } from "@/server/services/runtime/logs";
import { runtimeEndpoints } from "./endpoints/runtime";
import { route } from "./route";

// GET /v2/deployments/{id}/logs/stream: the deployment's runtime logs followed live, as
// server-sent events (the events of services/runtime/log-follow.ts). One cluster follow per
// request, ended when the client goes away or its credential ends.

export const streamRuntimeLogs = route(
  runtimeEndpoints.logStream,
  async ({ db, actor, params, query, requestId, signal }) => {
    // Ended by whichever comes first: the request's signal, or the response stream's cancel
    // (a pending read of the events would otherwise hold the cluster's follow open).
    const stop = new AbortController();
    const ended = AbortSignal.any([signal, stop.signal]);
    const events = await followRuntimeLogs(db, actor, params.deployment_id, query, ended);
    const encoder = new TextEncoder();
    const iterator = events[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(": following\n\n"));
      },
      async pull(controller) {
        try {
          const { value, done } = await iterator.next();
          if (done) return controller.close();
          if (value.kind === "log")
            controller.enqueue(
              encoder.encode(
                `id: ${value.entry.id}\nevent: log\ndata: ${JSON.stringify(value.entry)}\n\n`,
              ),
            );
          else if (value.kind === "dropped")
            controller.enqueue(
              encoder.encode(`event: dropped\ndata: ${JSON.stringify({ count: value.count })}\n\n`),
            );
          else controller.enqueue(encoder.encode(": keep-alive\n\n"));
        } catch (error) {
          if (!ended.aborted) log.warn("runtime log stream failed", describeError(error));
          controller.close();
        }
      },
      async cancel() {
        stop.abort();
        await iterator.return?.();
      },
    });
    return eventStreamResponse(body, requestId);
  },
);

export const downloadRuntimeLogFile = route(
  runtimeEndpoints.logDownload,
  async ({ db, actor, params, query, requestId, signal }) => {
    const file = await downloadRuntimeLogs(db, actor, params.deployment_id, query, signal);
    const encoder = new TextEncoder();
    const iterator = file.lines[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk = "";
        while (chunk.length < 64 * 1024) {
          const { value, done } = await iterator.next();
          if (done) {
            if (chunk) controller.enqueue(encoder.encode(chunk));
            return controller.close();
          }
          chunk += value;
        }
        controller.enqueue(encoder.encode(chunk));
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "content-disposition": `attachment; filename="${file.filename.replace(/[^\w.-]/g, "_")}"`,
        "cache-control": "no-store",
        [REQUEST_ID_HEADER]: requestId,
      },
    });
  },
);
