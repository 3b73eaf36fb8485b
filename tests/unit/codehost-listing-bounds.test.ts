import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createCodehostClient } from "../../src/server/integrations/codehost/octokit";
import { nextPageUrl } from "../../src/server/integrations/codehost/pagination";
import { parseAllowlist } from "../../src/server/outbound/allowlist";
import { createOutboundFetch } from "../../src/server/outbound/client";

// Issue 11, findings 3 and 5: code-host calls go through the outbound address policy, and a
// listing follows `Link: rel="next"` only to the code host's own origin, within bounds, and
// stops when the caller goes away. Loopback servers only.

interface Seen {
  url: string;
  authorization: string | undefined;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A code host whose every page answers one repository and `next(page)` as its next link. */
async function codeHost(next: (page: number, origin: string) => string | null, delayMs = 0) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const link = next(page, origin);
    setTimeout(() => {
      res.writeHead(200, {
        "content-type": "application/json",
        ...(link ? { link: `<${link}>; rel="next"` } : {}),
      });
      res.end(
        JSON.stringify([
          { id: page, name: `r${page}`, owner: { login: "o" }, html_url: `${origin}/o/r${page}` },
        ]),
      );
    }, delayMs);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen };
}

const allowLoopback = createOutboundFetch({ allowlist: parseAllowlist("127.0.0.1") });
const token = { kind: "token" as const, token: "secret-token" };

describe("code-host listing bounds", () => {
  it("stops a host that always has a next page at the page cap (502), without more requests", async () => {
    const host = await codeHost(
      (page, origin) => `${origin}/user/repos?per_page=100&page=${page + 1}`,
    );
    const client = createCodehostClient(host.url, token, {
      fetch: allowLoopback,
      limits: { maxPages: 5, maxRepositories: 1000, deadlineMs: 30_000 },
    });
    await expect(client.listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: expect.stringContaining("more pages (over 5)"),
    });
    expect(host.seen).toHaveLength(5);
  });

  it("bounds the repositories held", async () => {
    const host = await codeHost((page, origin) => `${origin}/user/repos?page=${page + 1}`);
    const client = createCodehostClient(host.url, token, {
      fetch: allowLoopback,
      limits: { maxPages: 100, maxRepositories: 3, deadlineMs: 30_000 },
    });
    await expect(client.listRepositories()).rejects.toMatchObject({
      message: expect.stringContaining("more than 3 repositories"),
    });
    expect(host.seen).toHaveLength(4);
  });

  it("never follows a next link to another origin (the token stays home)", async () => {
    const elsewhere = await codeHost(() => null);
    const host = await codeHost(() => `${elsewhere.url}/steal?page=2`);
    const client = createCodehostClient(host.url, token, { fetch: allowLoopback });
    await expect(client.listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: expect.stringContaining("another origin"),
    });
    expect(host.seen).toHaveLength(1);
    expect(host.seen[0]!.authorization).toBe("token secret-token");
    expect(elsewhere.seen).toHaveLength(0);
  });

  it("stops listing when the caller's signal aborts", async () => {
    const host = await codeHost((page, origin) => `${origin}/user/repos?page=${page + 1}`, 20);
    const client = createCodehostClient(host.url, token, { fetch: allowLoopback });
    const controller = new AbortController();
    const listing = client.listRepositories({ signal: controller.signal });
    await expect.poll(() => host.seen.length).toBeGreaterThanOrEqual(2);
    controller.abort();
    await expect(listing).rejects.toMatchObject({ code: "bad_gateway" });
    const after = host.seen.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(host.seen.length).toBeLessThanOrEqual(after + 1);
  });

  it("ends the listing at the overall deadline", async () => {
    const host = await codeHost((page, origin) => `${origin}/user/repos?page=${page + 1}`, 30);
    const client = createCodehostClient(host.url, token, {
      fetch: allowLoopback,
      limits: { maxPages: 10_000, maxRepositories: 100_000, deadlineMs: 300 },
    });
    await expect(client.listRepositories()).rejects.toMatchObject({
      message: "The code host did not finish listing within 300 ms.",
    });
  });

  it("refuses a loopback code host unless allow-listed (502 naming the policy), sending nothing", async () => {
    const host = await codeHost(() => null);
    const refused = createCodehostClient(host.url, token, {
      fetch: createOutboundFetch({ allowlist: parseAllowlist("") }),
    });
    await expect(refused.listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: expect.stringMatching(/loopback address.*outbound address policy/),
    });
    expect(host.seen).toHaveLength(0);
  });

  it("refuses a name that resolves to a refused address (checked at call time)", async () => {
    const host = await codeHost(() => null);
    const port = new URL(host.url).port;
    const client = createCodehostClient(`http://codehost.internal:${port}`, token, {
      fetch: createOutboundFetch({
        allowlist: parseAllowlist(""),
        lookup: async () => [{ address: "127.0.0.1", family: 4 }],
      }),
    });
    await expect(client.getBranchCommit("o", "r", "main")).rejects.toMatchObject({
      code: "bad_gateway",
      message: expect.stringContaining("codehost.internal resolves to a loopback address"),
    });
    expect(host.seen).toHaveLength(0);
  });
});

describe("nextPageUrl", () => {
  const base = "https://api.codehost.example/v3";
  it("reads rel=next among other relations", () => {
    expect(
      nextPageUrl(
        '<https://api.codehost.example/v3/user/repos?page=1>; rel="prev", <https://api.codehost.example/v3/user/repos?page=3>; rel="next"',
        base,
      ),
    ).toBe("https://api.codehost.example/v3/user/repos?page=3");
    expect(nextPageUrl('<https://api.codehost.example/x>; rel="last"', base)).toBeNull();
    expect(nextPageUrl(undefined, base)).toBeNull();
  });
  it("refuses another origin, scheme or port", () => {
    for (const other of [
      "https://evil.example/x",
      "http://api.codehost.example/x",
      "https://api.codehost.example:8443/x",
    ])
      expect(() => nextPageUrl(`<${other}>; rel="next"`, base)).toThrow(/another origin/);
  });
});
