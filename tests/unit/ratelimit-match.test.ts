import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/server/crypto";
import { identify, matchRequest, type Caller } from "../../src/server/ratelimit/match";
import { limitFor, rateLimitRules, type Region } from "../../src/server/ratelimit/rules";

const ADDRESS = "203.0.113.7";
const API_KEY = "hgr_secret_key_value";
const LISTENER_TOKEN = "hgl_secret_listener_token";
const UUID = "0b9f6c1e-3c1a-4d7e-9a2b-5f8e1d2c3b4a";
const callers = {
  apiKey: { kind: "apiKey", apiKey: API_KEY, address: ADDRESS },
  // A signed-in dashboard user (an x-user-id alone names no bucket: see "identify").
  user: { kind: "session", userId: "s-7", address: ADDRESS },
  session: { kind: "session", userId: "s-7", address: ADDRESS },
  anonymous: { kind: "anonymous", address: ADDRESS },
  listener: { kind: "listener", listenerToken: LISTENER_TOKEN, address: ADDRESS },
} satisfies Record<string, Caller>;
type CallerName = keyof typeof callers;

// The spec's table (8.2) restated independently of rules.ts: [US, EU] as [count, seconds].
type Case = [
  rule: string,
  method: string,
  path: string,
  caller: CallerName,
  us: number[],
  eu: number[],
];
const rows: Case[] = [
  ["signin-ip", "POST", "/signin", "anonymous", [30, 60], [30, 60]],
  ["signin-ip", "POST", "/api/auth/callback/credentials", "user", [30, 60], [30, 60]],
  // Hangar's own rows for the listener protocol (issue 16) and a followed log's lines (issue 34).
  [
    "listener-log-follow",
    "POST",
    `/v2/listener/log-requests/${UUID}/lines`,
    "listener",
    [3000, 60],
    [3000, 60],
  ],
  [
    "listener-protocol",
    "POST",
    `/v2/listener/log-requests/${UUID}`,
    "listener",
    [1200, 60],
    [1200, 60],
  ],
  ["listener-protocol", "POST", "/v2/listener/work", "listener", [1200, 60], [1200, 60]],
  [
    "listener-protocol",
    "POST",
    `/v2/listener/revisions/${UUID}/reports`,
    "listener",
    [1200, 60],
    [1200, 60],
  ],
  ["high-throughput-ip", "OPTIONS", "/v2/deployments", "apiKey", [2000, 10], [2000, 10]],
  ["high-throughput-ip", "GET", "/info", "anonymous", [2000, 10], [2000, 10]],
  ["high-throughput-ip", "POST", "/api/v1/metadata/submit", "user", [2000, 10], [2000, 10]],
  ["auth-api-key", "POST", "/api/v1/auth/verify", "apiKey", [2000, 10], [2000, 10]],
  ["auth-user", "GET", "/auth", "user", [2000, 10], [2000, 10]],
  ["beacon-ip", "POST", "/v1/beacon", "anonymous", [2000, 10], [2000, 10]],
  [
    "repos-api-key",
    "GET",
    `/v1/integrations/forge/codehost/${UUID}/repos`,
    "apiKey",
    [100, 60],
    [100, 60],
  ],
  [
    "repos-user",
    "GET",
    `/v1/integrations/forge/codehost/${UUID}/repos`,
    "user",
    [100, 60],
    [100, 60],
  ],
  ["runs-batch-api-key", "POST", "/runs/batch", "apiKey", [2000, 10], [2000, 10]],
  ["otel-traces-api-key", "POST", "/otel/v1/traces", "apiKey", [2000, 10], [2000, 10]],
  ["charts-api-key", "POST", "/api/v1/charts/section", "apiKey", [750, 600], [750, 600]],
  ["charts-user", "POST", "/v1/dashboards/charts-layout", "session", [750, 600], [750, 600]],
  ["runs-multipart-api-key", "POST", "/runs/multipart", "apiKey", [6000, 10], [6000, 10]],
  ["runs-query-api-key", "POST", "/api/v1/runs/query", "apiKey", [15, 10], [15, 10]],
  ["runs-query-user", "POST", "/runs/query", "user", [300, 10], [300, 10]],
  ["generate-api-key", "POST", "/prompts/generate", "apiKey", [30, 3600], [30, 3600]],
  ["generate-user", "POST", "/generate", "user", [30, 3600], [30, 3600]],
  ["commits-api-key", "GET", "/commits/acme/prompt", "apiKey", [10000, 60], [2000, 60]],
  ["commits-user", "POST", "/commits", "user", [10000, 60], [2000, 60]],
  ["deletion-api-key", "DELETE", `/sessions/${UUID}`, "apiKey", [10, 60], [10, 60]],
  ["deletion-api-key", "DELETE", "/workflows/nightly/trigger", "apiKey", [10, 60], [10, 60]],
  ["deletion-user", "DELETE", "/api/v1/sessions", "user", [30, 60], [30, 60]],
  ["deletion-user", "DELETE", "/jobs/x/trigger", "user", [30, 60], [30, 60]],
  ["runs-ingest-api-key", "POST", "/runs", "apiKey", [2000, 10], [2000, 10]],
  ["runs-ingest-api-key", "POST", "/api/v1/runs", "apiKey", [2000, 10], [2000, 10]],
  ["runs-patch-api-key", "PATCH", `/runs/${UUID}`, "apiKey", [2000, 10], [2000, 10]],
  ["feedback-api-key", "POST", "/feedback", "apiKey", [2000, 10], [2000, 10]],
  ["run-lookup-api-key", "GET", `/runs/${UUID}`, "apiKey", [30, 60], [30, 60]],
  ["run-lookup-api-key", "GET", `/api/v1/runs/${UUID.toUpperCase()}`, "apiKey", [30, 60], [30, 60]],
  ["examples-api-key", "GET", "/api/v1/examples", "apiKey", [5000, 60], [5000, 60]],
  ["default-api-key", "GET", "/v2/deployments", "apiKey", [1000, 10], [1000, 10]],
  ["default-user", "GET", "/v2/deployments", "user", [1000, 10], [1000, 10]],
  ["default-user", "PATCH", `/v2/deployments/${UUID}`, "session", [1000, 10], [1000, 10]],
  ["public-download-ip", "GET", "/public/download/report.csv", "anonymous", [5000, 60], [5000, 60]],
  ["runs-stats-api-key", "POST", "/runs/stats", "apiKey", [1, 10], [20, 10]],
  ["runs-stats-api-key", "GET", "/api/v1/runs/stats", "apiKey", [1, 10], [20, 10]],
  ["catch-all-ip", "GET", "/v2/deployments", "anonymous", [100, 60], [100, 60]],
];

function expectedKey(rule: string, caller: CallerName): string {
  if (rule.endsWith("-ip")) return `${rule}:ip:${ADDRESS}`;
  if (caller === "apiKey") return `${rule}:key:${sha256Hex(API_KEY)}`;
  if (caller === "listener") return `${rule}:listener:${sha256Hex(LISTENER_TOKEN)}`;
  // A user call counts the pair of the (verified) user id and the client address.
  return `${rule}:user:s-7:${ADDRESS}`;
}

const regions: [Region, 0 | 1][] = [
  ["us", 0],
  ["eu", 1],
  ["apac", 0],
  ["us2", 0],
];

describe("every row of the table", () => {
  it("has a case here (the spec's 29 rows, sign-in, the listener protocol and followed logs)", () => {
    expect(rateLimitRules).toHaveLength(32);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(rateLimitRules.map((r) => r.id)));
  });

  describe.each(regions)("region %s", (region, column) => {
    it.each(rows)("%s <- %s %s (%s)", (ruleId, method, path, caller, us, eu) => {
      const { rule, key } = matchRequest(method, path, callers[caller]);
      expect(rule.id).toBe(ruleId);
      expect(key).toBe(expectedKey(ruleId, caller));
      expect(key).not.toContain(API_KEY);
      expect(key).not.toContain(LISTENER_TOKEN);
      const [count, seconds] = column === 0 ? us : eu;
      expect(limitFor(rule, region)).toEqual({ count, seconds });
    });
  });
});

describe("matching precedence", () => {
  const ruleOf = (method: string, path: string, caller: CallerName) =>
    matchRequest(method, path, callers[caller]).rule.id;

  it("a row with a path beats the identity default", () => {
    expect(ruleOf("GET", "/repos", "apiKey")).toBe("repos-api-key");
    expect(ruleOf("GET", "/public/download", "apiKey")).toBe("public-download-ip");
  });

  it("among path rows the first in table order wins", () => {
    expect(ruleOf("POST", "/auth/charts", "apiKey")).toBe("auth-api-key");
    expect(ruleOf("OPTIONS", "/repos", "apiKey")).toBe("high-throughput-ip");
    expect(ruleOf("POST", "/runs/query", "apiKey")).toBe("runs-query-api-key");
    expect(ruleOf("PATCH", "/runs/stats", "apiKey")).toBe("runs-patch-api-key");
  });

  it("the listener row applies only to listener calls on the protocol", () => {
    expect(ruleOf("POST", "/v2/listener/work", "anonymous")).toBe("catch-all-ip");
    expect(ruleOf("POST", "/v2/listener/work", "apiKey")).toBe("default-api-key");
    expect(ruleOf("GET", "/v2/listeners", "listener")).toBe("catch-all-ip");
    expect(ruleOf("POST", "/v2/listeners", "listener")).toBe("catch-all-ip");
  });

  it("a row applies only to the identity it names", () => {
    expect(ruleOf("GET", "/repos", "anonymous")).toBe("catch-all-ip");
    expect(ruleOf("POST", "/runs/stats", "user")).toBe("default-user");
    expect(ruleOf("POST", "/runs/batch", "session")).toBe("default-user");
    expect(ruleOf("DELETE", "/sessions", "anonymous")).toBe("catch-all-ip");
  });

  it("a row with a method applies only to that method", () => {
    expect(ruleOf("GET", "/runs/batch", "apiKey")).toBe("default-api-key");
    expect(ruleOf("GET", "/charts", "user")).toBe("default-user");
    expect(ruleOf("GET", "/sessions", "apiKey")).toBe("default-api-key");
  });

  it("path patterns: segments, suffixes, substrings and uuids", () => {
    expect(ruleOf("GET", "/repository", "apiKey")).toBe("default-api-key");
    expect(ruleOf("GET", "/myrepos", "apiKey")).toBe("default-api-key");
    expect(ruleOf("POST", "/v1/metadata/submit/more", "anonymous")).toBe("catch-all-ip");
    expect(ruleOf("DELETE", "/trigger/now", "apiKey")).toBe("default-api-key");
    expect(ruleOf("DELETE", "/retrigger", "apiKey")).toBe("default-api-key");
    expect(ruleOf("GET", "/runs/not-a-uuid", "apiKey")).toBe("default-api-key");
    expect(ruleOf("GET", `/runs/${UUID}/children`, "apiKey")).toBe("run-lookup-api-key");
    expect(ruleOf("GET", "/infox", "anonymous")).toBe("catch-all-ip");
  });

  it("encoded or doubled slashes do not dodge a row", () => {
    expect(ruleOf("GET", "/v1/x/rep%6Fs", "apiKey")).toBe("repos-api-key");
    expect(ruleOf("GET", "//v1//repos/", "apiKey")).toBe("repos-api-key");
    expect(ruleOf("GET", "/v1/%E0%A4%A/repos", "apiKey")).toBe("repos-api-key");
  });

  it("methods compare case-insensitively as sent by the runtime", () => {
    expect(ruleOf("post", "/runs/query", "apiKey")).toBe("runs-query-api-key");
  });
});

describe("identify", () => {
  const h = (entries: Record<string, string>) => new Headers(entries);

  it("a live x-api-key first, then the session, else the address", () => {
    expect(identify(h({ "x-api-key": "k", "x-user-id": "u" }), ADDRESS, "s", true)).toEqual({
      kind: "apiKey",
      apiKey: "k",
      address: ADDRESS,
    });
    expect(identify(h({ "x-user-id": "u" }), ADDRESS, "s", false).kind).toBe("session");
    expect(identify(h({}), ADDRESS, null, false)).toEqual({ kind: "anonymous", address: ADDRESS });
  });

  it("an unverified key or a made-up x-user-id names no bucket: the address counts", () => {
    const anonymous = { kind: "anonymous", address: ADDRESS };
    expect(identify(h({ "x-api-key": "made-up" }), ADDRESS, null, false)).toEqual(anonymous);
    // Even with a session cookie, an unknown key is no key and no session either.
    expect(identify(h({ "x-api-key": "made-up" }), ADDRESS, "s", false)).toEqual(anonymous);
    expect(identify(h({ "x-user-id": "u-1" }), ADDRESS, null, false)).toEqual(anonymous);
    const keys = ["u-1", "u-2"].map(
      (id) => matchRequest("GET", "/x", identify(h({ "x-user-id": id }), ADDRESS, null, false)).key,
    );
    expect(keys[0]).toBe(keys[1]);
  });

  it("a user's calls count per user and address, the spec's x-user-id + IP pair", () => {
    const session = (userId: string, address: string): Caller => ({
      kind: "session",
      userId,
      address,
    });
    const key = (userId: string, address: string) =>
      matchRequest("GET", "/x", session(userId, address)).key;
    expect(key("s", "198.51.100.1")).toBe(key("s", "198.51.100.1"));
    expect(key("s", "198.51.100.1")).not.toBe(key("s", "198.51.100.2"));
    expect(key("s", "198.51.100.1")).not.toBe(key("t", "198.51.100.1"));
  });
});
