import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowlist } from "../../src/server/outbound/allowlist";
import { createOutboundFetch } from "../../src/server/outbound/client";
import { OutboundError } from "../../src/server/outbound/errors";

// The outbound client against servers on loopback only: what the policy lets through, what it
// refuses, redirects, deadlines and size caps.

interface Target {
  server: Server;
  port: number;
  hits: string[];
}

async function target(handler: Parameters<typeof createServer>[1]): Promise<Target> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    handler!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

let ok: Target;
let other: Target;
let redirecting: Target;
let silent: Target;
let huge: Target;

beforeAll(async () => {
  ok = await target((_req, res) => res.end(JSON.stringify({ ok: true })));
  other = await target((_req, res) => res.end("other"));
  redirecting = await target((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${other.port}/secret` });
    res.end();
  });
  silent = await target(() => undefined);
  huge = await target((_req, res) => {
    res.write("x".repeat(64 * 1024));
    res.end("x".repeat(64 * 1024));
  });
});

afterAll(async () => {
  for (const t of [ok, other, redirecting, silent, huge]) {
    t.server.closeAllConnections();
    await new Promise((resolve) => t.server.close(resolve));
  }
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as OutboundError,
  );

describe("outbound client on loopback", () => {
  it("refuses loopback when nothing is allow-listed, and sends nothing", async () => {
    const fetch = createOutboundFetch({ allowlist: parseAllowlist("") });
    const error = await refusal(fetch(`http://127.0.0.1:${ok.port}/`));
    expect(error).toBeInstanceOf(OutboundError);
    expect(error?.kind).toBe("refused");
    expect(error?.message).toContain("outbound address policy");
    expect(ok.hits).toEqual([]);
  });

  it("reaches exactly the allow-listed host:port, by address or by name", async () => {
    const fetch = createOutboundFetch({
      allowlist: parseAllowlist(`127.0.0.1:${ok.port},localhost:${ok.port}`),
    });
    const byAddress = await fetch(`http://127.0.0.1:${ok.port}/a`);
    expect(await byAddress.json()).toEqual({ ok: true });
    const byName = await fetch(`http://localhost:${ok.port}/b`);
    expect(byName.status).toBe(200);
    expect(ok.hits).toEqual(["/a", "/b"]);
    const elsewhere = await refusal(fetch(`http://127.0.0.1:${other.port}/`));
    expect(elsewhere?.kind).toBe("refused");
    expect(other.hits).toEqual([]);
  });

  it("resolves a name once and connects to the address it checked", async () => {
    let lookups = 0;
    const fetch = createOutboundFetch({
      allowlist: parseAllowlist(`svc.test:${ok.port}`),
      lookup: async () => (lookups++, [{ address: "127.0.0.1", family: 4 }]),
    });
    const response = await fetch(`http://svc.test:${ok.port}/once`);
    expect(response.status).toBe(200);
    expect(lookups).toBe(1);
    expect(ok.hits.at(-1)).toBe("/once");
  });

  it("a name resolving to loopback is refused unless listed", async () => {
    const fetch = createOutboundFetch({
      allowlist: parseAllowlist(""),
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const error = await refusal(fetch(`http://rebind.test:${ok.port}/`));
    expect(error?.message).toMatch(/^rebind\.test resolves to a loopback address/);
  });

  it("returns redirects unfollowed by default, and never follows one to a refused address", async () => {
    const fetch = createOutboundFetch({
      allowlist: parseAllowlist(`127.0.0.1:${redirecting.port}`),
    });
    const response = await fetch(`http://127.0.0.1:${redirecting.port}/`);
    expect(response.status).toBe(302);
    const error = await refusal(
      fetch(`http://127.0.0.1:${redirecting.port}/`, { maxRedirects: 3 }),
    );
    expect(error?.kind).toBe("refused");
    expect(other.hits).toEqual([]);
  });

  it("times out a server that never answers", async () => {
    const fetch = createOutboundFetch({ allowlist: parseAllowlist(`127.0.0.1:${silent.port}`) });
    const error = await refusal(fetch(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 300 }));
    expect(error?.kind).toBe("timeout");
    expect(error?.message).toBe(`127.0.0.1:${silent.port} did not answer within 0.3 s`);
  });

  it("cuts a body larger than the cap", async () => {
    const fetch = createOutboundFetch({ allowlist: parseAllowlist(`127.0.0.1:${huge.port}`) });
    const response = await fetch(`http://127.0.0.1:${huge.port}/`, { maxBytes: 100_000 });
    const error = await refusal(response.text());
    expect(error?.kind).toBe("too_large");
    const small = await fetch(`http://127.0.0.1:${huge.port}/`, { maxBytes: 200_000 });
    expect((await small.text()).length).toBe(128 * 1024);
  });

  it("a closed port is unreachable", async () => {
    const closed = await target(() => undefined);
    const port = closed.port;
    await new Promise((resolve) => closed.server.close(resolve));
    const fetch = createOutboundFetch({ allowlist: parseAllowlist(`127.0.0.1:${port}`) });
    const error = await refusal(fetch(`http://127.0.0.1:${port}/`));
    expect(error?.kind).toBe("unreachable");
  });
});
