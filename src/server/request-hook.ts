import http from "node:http";
import https from "node:https";
import { normalizeAddress, PEER_HEADER } from "@/server/ratelimit/client-address";
import { trustForwardedHeaders } from "@/server/forwarded-headers";
import { admitRequest } from "@/server/shutdown";

/*
 * Next 16's handlers see headers, never the socket, and Next fills X-Forwarded-* only where the
 * client sent none (`??=` in base-server). So the server fixes every request's headers as it
 * arrives, before Next or next-auth read them: the socket's address stamped into PEER_HEADER
 * (overwriting a client's), and the forwarded scheme/host/port kept only from trusted proxies.
 */

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
const INSTALLED = Symbol.for("hangar.requestHook");

/** Called once at server start (instrumentation.ts), before any request is handled. */
export function installRequestHook(trustedProxyHops: number): void {
  for (const proto of [http.Server.prototype, https.Server.prototype] as unknown as Array<
    { emit: Emit } & Record<symbol, boolean>
  >) {
    if (proto[INSTALLED]) continue;
    const emit = proto.emit;
    proto.emit = function (event, ...args) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        // While the server stops, a new request is answered 503 here (shutdown.ts).
        if (!admitRequest(this as http.Server, request, args[1] as http.ServerResponse))
          return true;
        request.headers[PEER_HEADER] = normalizeAddress(request.socket.remoteAddress ?? "");
        trustForwardedHeaders(request.headers, trustedProxyHops);
      }
      return emit.call(this, event, ...args);
    };
    proto[INSTALLED] = true;
  }
}
