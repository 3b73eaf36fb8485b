import { randomUUID } from "node:crypto";
import type http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { log } from "@/server/log";

// A graceful stop of the web server (SIGTERM under `npm start`, which sets NEXT_MANUAL_SIG_HANDLE
// so Next leaves the signal to us). Every request is seen as it arrives, at the HTTP server
// (request-hook.ts): while draining, new ones are answered 503 with the contract's error body and
// `Connection: close`; requests already in flight run to their end; long-lived answers (event
// streams, long polls) see their signal abort and end as they do when the client leaves (a
// stream closes, a long poll answers "nothing yet"). Then the server closes and the process exits.
// State lives on globalThis: the production build loads a module once per route bundle.

interface State {
  draining: boolean;
  controller: AbortController;
  inFlight: number;
  settled: Set<() => void>;
  servers: Set<http.Server>;
}

const KEY = Symbol.for("hangar.shutdown");
const holder = globalThis as unknown as Record<symbol, State | undefined>;
const state = (): State =>
  (holder[KEY] ??= {
    draining: false,
    controller: new AbortController(),
    inFlight: 0,
    settled: new Set(),
    servers: new Set(),
  });

export const SHUTTING_DOWN = "Hangar is shutting down; retry in a few seconds";

/** Aborted when the server begins to stop: long-lived answers end on it. */
export const shutdownSignal = (): AbortSignal => state().controller.signal;

/**
 * Called for each request as it arrives: counts it while it runs, or (draining) answers it 503
 * at once and returns false (the request goes no further).
 */
export function admitRequest(
  server: http.Server,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): boolean {
  const s = state();
  s.servers.add(server);
  s.inFlight++;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    s.inFlight--;
    if (s.inFlight === 0) for (const settle of s.settled) settle();
  };
  res.once("finish", finish);
  res.once("close", finish);
  if (!s.draining) return true;
  const id = req.headers["x-request-id"];
  const body = JSON.stringify({ detail: SHUTTING_DOWN, code: "unavailable" });
  res.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "retry-after": "5",
    connection: "close",
    "x-request-id":
      typeof id === "string" && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : randomUUID(),
  });
  res.end(body);
  return false;
}

const settled = (s: State) =>
  s.inFlight === 0
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const settle = () => (s.settled.delete(settle), resolve());
        s.settled.add(settle);
      });

/**
 * Drains: refuses new requests (503), ends long-lived answers, waits up to `graceMs` for the
 * requests in flight, lingers `lingerMs` so clients that were sent a 503 stop before the
 * connections close, then closes the servers.
 */
export async function drain(graceMs: number, lingerMs = 1000): Promise<{ unfinished: number }> {
  const s = state();
  s.draining = true;
  s.controller.abort();
  const started = Date.now();
  await Promise.race([settled(s), sleep(graceMs)]);
  if (Date.now() - started < graceMs) await sleep(lingerMs);
  const unfinished = s.inFlight;
  for (const server of s.servers) {
    server.close();
    server.closeIdleConnections();
  }
  return { unfinished };
}

/** On SIGTERM or SIGINT: drains (above), then exits. */
export function stopGracefullyOnSignals(graceMs: number): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const { unfinished } = await drain(graceMs);
    log.info("web server stopped", { unfinished_requests: unfinished });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}
