import { describe, expect, it } from "vitest";
import { matchRequest, type Caller } from "../../src/server/ratelimit/match";
import { limitFor } from "../../src/server/ratelimit/rules";

// Spec 8.2's tracing rows on the real routes under /api/v1, restated from the table: the rule,
// and its US limit as [count, seconds].

const apiKey: Caller = { kind: "apiKey", apiKey: "hgr_key", address: "203.0.113.9" };
const RUN = "0b9f6c1e-3c1a-4d7e-9a2b-5f8e1d2c3b4a";

const rows: [method: string, path: string, rule: string, limit: [number, number]][] = [
  ["POST", "/api/v1/runs/multipart", "runs-multipart-api-key", [6000, 10]],
  ["POST", "/api/v1/runs/batch", "runs-batch-api-key", [2000, 10]],
  ["POST", "/api/v1/runs", "runs-ingest-api-key", [2000, 10]],
  ["PATCH", `/api/v1/runs/${RUN}`, "runs-patch-api-key", [2000, 10]],
  ["POST", "/api/v1/otel/v1/traces", "otel-traces-api-key", [2000, 10]],
  // The OTLP exporters' spellings of the same route cannot dodge its row.
  ["POST", "/api/v1/otel/v1/traces/", "otel-traces-api-key", [2000, 10]],
  ["POST", "/api/v1//otel/v1/trac%65s", "otel-traces-api-key", [2000, 10]],
  // Only the export is run ingest; other methods there (a 404) fall to the key's default.
  ["GET", "/api/v1/otel/v1/traces", "default-api-key", [1000, 10]],
  ["POST", "/api/v1/runs/query", "runs-query-api-key", [15, 10]],
  ["GET", `/api/v1/runs/${RUN}`, "run-lookup-api-key", [30, 60]],
  ["GET", `/api/v1/runs/${RUN}/attachments/notes`, "run-lookup-api-key", [30, 60]],
  // An attachment's presigned_url: the Public download row whoever calls (an IP row).
  ["GET", "/api/v1/public/download", "public-download-ip", [5000, 60]],
  ["POST", "/api/v1/runs/stats", "runs-stats-api-key", [1, 10]],
  ["POST", "/api/v1/feedback", "feedback-api-key", [2000, 10]],
  ["DELETE", "/api/v1/sessions", "deletion-api-key", [10, 60]],
  ["GET", "/api/v1/info", "high-throughput-ip", [2000, 10]],
  // Reads with no row of their own fall to the key's default.
  ["GET", "/api/v1/sessions", "default-api-key", [1000, 10]],
  ["GET", `/api/v1/feedback/${RUN}`, "default-api-key", [1000, 10]],
];

describe("the tracing routes' rate-limit rows", () => {
  it.each(rows)("%s %s → %s", (method, path, rule, [count, seconds]) => {
    const match = matchRequest(method, path, apiKey);
    expect(match.rule.id).toBe(rule);
    expect(limitFor(match.rule, "us")).toEqual({ count, seconds });
  });
});

describe("an attachment's presigned_url without a key", () => {
  it("counts by address on the Public download row, not the catch-all", () => {
    const anonymous: Caller = { kind: "anonymous", address: "203.0.113.9" };
    const match = matchRequest("GET", "/api/v1/public/download", anonymous);
    expect(match.rule.id).toBe("public-download-ip");
    expect(match.key).toBe("public-download-ip:ip:203.0.113.9");
  });
});

describe("OTLP export without a live key", () => {
  it("counts by address on the catch-all row, as every anonymous call", () => {
    const anonymous: Caller = { kind: "anonymous", address: "203.0.113.9" };
    const match = matchRequest("POST", "/api/v1/otel/v1/traces", anonymous);
    expect(match.rule.id).toBe("catch-all-ip");
    expect(match.key).toBe("catch-all-ip:ip:203.0.113.9");
  });

  it("counts an editor key's exports in that key's own bucket", () => {
    const one = matchRequest("POST", "/api/v1/otel/v1/traces", apiKey);
    const two = matchRequest("POST", "/api/v1/otel/v1/traces", { ...apiKey, apiKey: "hgr_other" });
    expect(one.key).not.toBe(two.key);
    expect(one.key.startsWith("otel-traces-api-key:key:")).toBe(true);
  });
});
