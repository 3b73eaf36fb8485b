import http from "node:http";
import net from "node:net";
import { once } from "node:events";
import type { Duplex } from "node:stream";
import type { BuildEgress } from "@/server/outbound/build-egress";
import { checkedBuildAddress } from "@/server/outbound/build-egress";
import { findOutboundError } from "@/server/outbound/errors";
import type { Lookup } from "@/server/outbound/resolve";

// A build's only way out of its sandbox: an HTTP proxy on a Unix socket that the sandbox's
// forwarder reaches (its network namespace has nothing but loopback). Every destination is
// resolved here once and checked against the build egress rule (HANGAR_BUILD_EGRESS), then the
// checked address is dialled: a refused destination is refused without a packet leaving. HTTPS
// goes through CONNECT tunnels; plain HTTP as absolute-form requests, forwarded as they came.

const CONNECT_TIMEOUT_MS = 10_000;
/** Open client connections one sandbox may hold (its forwarder's), so it cannot exhaust files. */
const MAX_CONNECTIONS = 256;
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

export interface EgressProxyOptions {
  socketPath: string;
  egress: BuildEgress;
  /** A refused destination, in words for the build log. */
  onRefused(message: string): void;
  lookup?: Lookup;
}

export interface EgressProxy {
  close(): Promise<void>;
}

/** host and port of a CONNECT target or an absolute URL; null when it is neither. */
function targetOf(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  /** The address to dial, or null (refused, and said so). */
  async function dialable(host: string, port: number): Promise<string | null> {
    try {
      return await checkedBuildAddress(host, port, options.egress, options.lookup);
    } catch (error) {
      const outbound = findOutboundError(error);
      options.onRefused(
        `Egress refused: ${outbound ? outbound.message : `${host}:${port} could not be checked`}`,
      );
      return null;
    }
  }

  const dial = (address: string, port: number) =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect({ host: address, port, timeout: CONNECT_TIMEOUT_MS });
      socket.once("connect", () => {
        socket.setTimeout(0);
        resolve(socket);
      });
      socket.once("timeout", () => socket.destroy(new Error("connect timeout")));
      socket.once("error", reject);
    });

  const refuse = (client: Duplex, status: string, body: string) => {
    client.end(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("Only absolute http:// URLs go through this proxy.\n");
      return;
    }
    if (url.protocol !== "http:") {
      res.writeHead(400).end("Use CONNECT for https.\n");
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = Number(url.port) || 80;
    const address = await dialable(host, port);
    if (!address) {
      res
        .writeHead(403, { "content-type": "text/plain" })
        .end("Refused by Hangar's build egress rule (HANGAR_BUILD_EGRESS).\n");
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = http.request({
      host: address,
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      timeout: CONNECT_TIMEOUT_MS,
      setHost: false,
    });
    upstream.on("response", (answer) => {
      const answerHeaders = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete answerHeaders[name];
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.pipe(res);
    });
    upstream.on("timeout", () => upstream.destroy(new Error("timeout")));
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end("The destination could not be reached.\n");
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on("connect", async (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on("error", () => undefined);
    const target = targetOf(req.url ?? "");
    if (!target) return refuse(client, "400 Bad Request", "CONNECT host:port\n");
    const address = await dialable(target.host, target.port);
    if (!address)
      return refuse(
        client,
        "403 Forbidden",
        "Refused by Hangar's build egress rule (HANGAR_BUILD_EGRESS).\n",
      );
    let upstream: net.Socket;
    try {
      upstream = await dial(address, target.port);
    } catch {
      return refuse(client, "502 Bad Gateway", "The destination could not be reached.\n");
    }
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.on("clientError", (_error, socket) => socket.destroy());

  server.listen(options.socketPath);
  await once(server, "listening");
  return {
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
