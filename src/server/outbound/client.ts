import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { env } from "@/env";
import { parseAllowlist, type Allowlist } from "./allowlist";
import { OutboundError, findOutboundError } from "./errors";
import { checkedAddress, type Lookup } from "./resolve";

// The one HTTP client for every URL a user supplies (OAuth endpoints, MCP discovery, ...):
// addresses checked at connect time, no redirects unless asked, a deadline, a size cap.

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | URLSearchParams | null;
  signal?: AbortSignal | null;
  /** Whole-request deadline (connect, headers, body). */
  timeoutMs?: number;
  /** Largest response body read; more is an error. */
  maxBytes?: number;
  /** Redirects followed (GET only), each one checked like the first request. Default 0. */
  maxRedirects?: number;
}

export type OutboundFetch = (url: string | URL, init?: OutboundInit) => Promise<Response>;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function guardedAgent(allowlist: Allowlist, resolve?: Lookup): Agent {
  const connector = buildConnector({ timeout: DEFAULT_TIMEOUT_MS });
  return new Agent({
    connect(options, callback) {
      const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80);
      checkedAddress(options.hostname, port, allowlist, resolve).then(
        // `host` (the name) stays, so TLS still verifies the name while we dial the address.
        (address) => connector({ ...options, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
}

/** The response with its body cut off (as an error) past `maxBytes`. */
function capped(response: Awaited<ReturnType<typeof undiciFetch>>, maxBytes: number): Response {
  const init = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers as unknown as Headers,
  };
  const tooLarge = () =>
    new OutboundError("too_large", `the answer is larger than ${maxBytes} bytes`);
  if (NULL_BODY_STATUSES.has(response.status) || !response.body) return new Response(null, init);
  if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
    void response.body.cancel();
    throw tooLarge();
  }
  let seen = 0;
  const body = (response.body as unknown as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, init);
}

function describeFailure(error: unknown, url: URL, timeoutMs: number): Error {
  const outbound = findOutboundError(error);
  if (outbound) return outbound;
  const name = (error as Error)?.name;
  const code = String(((error as Error)?.cause as { code?: string })?.code ?? "");
  if (name === "TimeoutError" || code === "UND_ERR_CONNECT_TIMEOUT")
    return new OutboundError("timeout", `${url.host} did not answer within ${timeoutMs / 1000} s`);
  if (name === "AbortError") return error as Error;
  return new OutboundError("unreachable", `${url.host} could not be reached`);
}

export function createOutboundFetch(options: {
  allowlist: Allowlist;
  lookup?: Lookup;
}): OutboundFetch {
  const dispatcher = guardedAgent(options.allowlist, options.lookup);
  return async function outboundFetch(input, init = {}) {
    const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let url = new URL(input);
    let method = init.method ?? "GET";
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "https:" && url.protocol !== "http:")
        throw new OutboundError("refused", `${url.protocol} URLs are not fetched`);
      const response = await undiciFetch(url, {
        method,
        headers: init.headers as Record<string, string>,
        body: init.body ?? undefined,
        redirect: "manual",
        signal,
        dispatcher,
      }).catch((error: unknown) => {
        throw describeFailure(error, url, timeoutMs);
      });
      const location = response.headers.get("location");
      if (
        response.status < 300 ||
        response.status > 399 ||
        !location ||
        hop >= (init.maxRedirects ?? 0)
      ) {
        return capped(response, init.maxBytes ?? DEFAULT_MAX_BYTES);
      }
      if (method !== "GET" && method !== "HEAD")
        throw new OutboundError("redirect", `${url.host} answered a ${method} with a redirect`);
      await response.body?.cancel();
      url = new URL(location, url);
      method = "GET";
    }
  };
}

let shared: OutboundFetch | undefined;

/** The process-wide client, allow-list from HANGAR_EGRESS_ALLOWLIST. */
export function outboundFetch(url: string | URL, init?: OutboundInit): Promise<Response> {
  shared ??= createOutboundFetch({ allowlist: parseAllowlist(env.HANGAR_EGRESS_ALLOWLIST) });
  return shared(url, init);
}
