import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encrypt } from "../../src/server/crypto";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Issue 11, findings 3 and 6: user-supplied URLs that Hangar calls are checked against the
// outbound address policy (the suite allows only 127.0.0.1): refused literal addresses at
// creation (422 naming the field), refused addresses at call time (502 naming the policy).

let tenant: Tenant;
let internal: http.Server;
let internalUrl: string;
let hits = 0;

beforeAll(async () => {
  tenant = await createTenant();
  // An "internal service" on another loopback address, which the allow-list does not name.
  internal = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify([{ id: 1, name: "secret", owner: { login: "internal" }, html_url: "x" }]),
    );
  });
  await new Promise<void>((r) => internal.listen(0, "127.0.0.2", r));
  internalUrl = `http://127.0.0.2:${(internal.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => internal.close(r)));

const createIntegration = (api_base_url: string) =>
  api("/v1/integrations/codehost", {
    key: tenant.keys.admin,
    method: "POST",
    body: { name: "probe", api_base_url, token: "t" },
  });

describe("outbound address policy at creation", () => {
  it.each([
    ["another loopback address", () => internalUrl],
    ["the cloud metadata address", () => "http://169.254.169.254/latest"],
    ["a private address", () => "http://10.0.0.7:8080"],
    ["IPv6 loopback", () => "http://[::1]:6379"],
  ])("refuses %s as api_base_url with 422", async (_what, url) => {
    const res = await createIntegration(url());
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "api_base_url"]);
    expect(res.body.detail[0].msg).toContain("HANGAR_EGRESS_ALLOWLIST");
    expect(hits).toBe(0);
  });

  it("refuses a base URL with a query or fragment (it would turn listing into any GET)", async () => {
    for (const url of ["http://127.0.0.1:4010/internal#", "http://127.0.0.1:4010/x?"]) {
      const res = await createIntegration(url);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0].msg).toMatch(/query .* or fragment/);
    }
  });

  it("refuses provider token and MCP URLs at refused literal addresses", async () => {
    const res = await api("/v2/auth/providers", {
      key: tenant.keys.admin,
      method: "POST",
      body: {
        provider_id: "ssrf-probe",
        name: "x",
        client_id: "c",
        client_secret: "s3cret",
        auth_url: "https://login.example.com/a",
        token_url: "https://169.254.169.254/token",
      },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "token_url"]);
  });
});

describe("outbound address policy at call time", () => {
  it("answers 502 naming the policy and sends nothing (an integration stored before the policy)", async () => {
    const row = await testDb().codehostIntegration.create({
      data: {
        organizationId: tenant.organizationId,
        name: "legacy",
        apiBaseUrl: internalUrl,
        tokenEncrypted: encrypt("token-that-must-stay-home"),
      },
    });
    const res = await api(`/v1/integrations/forge/codehost/${row.id}/repos`, {
      key: tenant.keys.viewer,
    });
    expect(res.status, res.text).toBe(502);
    expect(res.body.detail).toMatch(/127\.0\.0\.2 is a loopback address.*outbound address policy/);
    expect(hits).toBe(0);
  });
});
