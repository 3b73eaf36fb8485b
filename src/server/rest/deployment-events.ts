import { eventStreamResponse } from "./responses";
import { subscribeToDeployments } from "@/server/services/deployments/events";
import { deploymentEndpoints } from "./endpoints/deployments";
import { route } from "./route";

// GET /v2/deployments/events: deployment changes as server-sent events (see the service).

const HEARTBEAT_MS = 15_000;

export const streamDeploymentChanges = route(
  deploymentEndpoints.events,
  async ({ db, actor, query, requestId, signal }) => {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    const send = (text: string) => {
      if (!closed) controller.enqueue(encoder.encode(text));
    };
    const ready = () => send("event: ready\ndata: {}\n\n");
    // Subscribed before the answer starts: a 404 is still an error body, and no change is missed.
    const unsubscribe = await subscribeToDeployments(db, actor, query.deployment_id ?? null, {
      onChange: (change) => send(`event: change\ndata: ${JSON.stringify(change)}\n\n`),
      onResync: ready,
    });
    const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      try {
        controller.close();
      } catch {
        // Already closed: the client went away.
      }
    };
    signal.addEventListener("abort", close, { once: true });
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        ready();
        if (signal.aborted) close();
      },
      cancel: close,
    });
    return eventStreamResponse(body, requestId);
  },
);
