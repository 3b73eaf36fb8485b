import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  branchSha,
  DEFAULT_TOKEN,
  startCodehostServer,
  type CodehostServer,
} from "../../testing/codehost-server";
import { createCodehostClient } from "../../src/server/integrations/codehost/octokit";
import { parseAllowlist } from "../../src/server/outbound/allowlist";
import { createOutboundFetch } from "../../src/server/outbound/client";

// The client against the local code host: pages, app installation auth, refs, failures.

const app = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
});
const appCredentials = {
  kind: "app" as const,
  appId: "4242",
  privateKey: app.privateKey,
  installationId: "77",
};

let host: CodehostServer;
/** The outbound client with loopback allowed, as the test suite's HANGAR_EGRESS_ALLOWLIST does. */
const loopbackAllowed = createOutboundFetch({ allowlist: parseAllowlist("127.0.0.1") });

beforeAll(async () => {
  host = await startCodehostServer({
    extraRepos: 250,
    apps: [{ appId: "4242", publicKey: app.publicKey, installationId: "77" }],
  });
});
afterAll(() => host.stop());

const tokenClient = (options: { timeoutMs?: number } = {}) =>
  createCodehostClient(
    host.url,
    { kind: "token", token: DEFAULT_TOKEN },
    { fetch: loopbackAllowed, ...options },
  );

describe("codehost client", () => {
  it("lists every repository through the Link header, 100 per page", async () => {
    host.requests.length = 0;
    const repos = await tokenClient().listRepositories();
    expect(repos).toHaveLength(256);
    expect(new Set(repos.map((r) => r.id)).size).toBe(256);
    expect(host.requests).toEqual([
      "GET /user/repos?per_page=100",
      "GET /user/repos?per_page=100&page=2",
      "GET /user/repos?per_page=100&page=3",
    ]);
    expect(repos.find((r) => r.id === 1005)).toEqual({
      id: 1005,
      name: "Eval-Harness",
      owner: "beta-labs",
      url: `${host.url}/beta-labs/Eval-Harness`,
      defaultBranch: "dev",
    });
  });

  it("authenticates as an app installation and lists /installation/repositories", async () => {
    host.requests.length = 0;
    const repos = await createCodehostClient(host.url, appCredentials, {
      fetch: loopbackAllowed,
    }).listRepositories();
    expect(repos).toHaveLength(256);
    expect(host.requests[0]).toBe("POST /app/installations/77/access_tokens");
    expect(host.requests.slice(1)).toEqual([
      "GET /installation/repositories?per_page=100",
      "GET /installation/repositories?per_page=100&page=2",
      "GET /installation/repositories?per_page=100&page=3",
    ]);
  });

  it("refuses an app whose key the code host does not know, as a 502", async () => {
    const stranger = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const client = createCodehostClient(
      host.url,
      { ...appCredentials, privateKey: stranger.privateKey },
      { fetch: loopbackAllowed },
    );
    await expect(client.listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: expect.stringContaining("HTTP 401"),
    });
  });

  it("reads branch commits and file existence", async () => {
    const client = tokenClient();
    expect(await client.getBranchCommit("acme", "agent-chat", "main")).toBe(
      branchSha("acme", "agent-chat", "main"),
    );
    expect(await client.getBranchCommit("acme", "agent-chat", "nope")).toBeNull();
    expect(await client.getBranchCommit("acme", "missing", "main")).toBeNull();
    expect(await client.fileExists("acme", "agent-chat", "langgraph.json", "dev")).toBe(true);
    expect(await client.fileExists("acme", "agent-chat", "missing.json", "main")).toBe(false);
    expect(await client.fileExists("Zeta", "no-config", "langgraph.json", "main")).toBe(false);
    expect(await client.fileExists("acme", "agent-chat", "langgraph.json", "gone")).toBe(false);
  });

  it("maps a failing page, a revoked token, a timeout and an unreachable host to 502", async () => {
    host.setFailPage(2);
    await expect(tokenClient().listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: "The code host failed with HTTP 500.",
    });
    host.setFailPage(null);

    host.setRevoked(DEFAULT_TOKEN);
    await expect(tokenClient().listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: expect.stringContaining("refused the integration's credentials (HTTP 401)"),
    });
    await expect(tokenClient().getBranchCommit("acme", "agent-chat", "main")).rejects.toMatchObject(
      { code: "bad_gateway" },
    );
    host.setRevoked(DEFAULT_TOKEN, false);

    host.setDelay(1000);
    await expect(tokenClient({ timeoutMs: 100 }).listRepositories()).rejects.toMatchObject({
      code: "bad_gateway",
      message: "The code host did not answer within 100 ms.",
    });
    host.setDelay(0);

    const gone = await startCodehostServer();
    await gone.stop();
    await expect(
      createCodehostClient(
        gone.url,
        { kind: "token", token: "x" },
        { fetch: loopbackAllowed },
      ).listRepositories(),
    ).rejects.toMatchObject({
      code: "bad_gateway",
      message: "The code host could not be reached.",
    });
  });
});
