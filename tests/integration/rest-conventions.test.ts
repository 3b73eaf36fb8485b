import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Contract sections 1 and 3, for every route alike: request ids, body limits, unknown routes.

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

describe("REST conventions", () => {
  it("echoes a valid X-Request-Id and replaces a malformed one", async () => {
    const echoed = await api("/v2/tag-keys", {
      key: tenant.keys.viewer,
      headers: { "x-request-id": "req-123.abc" },
    });
    expect(echoed.headers.get("x-request-id")).toBe("req-123.abc");
    const replaced = await api("/v2/tag-keys", {
      key: tenant.keys.viewer,
      headers: { "x-request-id": "bad id with spaces" },
    });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const error = await api("/v2/deployments/00000000-0000-4000-8000-000000000000", {
      key: tenant.keys.viewer,
    });
    expect(error.status).toBe(404);
    expect(error.headers.get("x-request-id")).toBeTruthy();
  });

  it("refuses bodies over 1 MiB with 413", async () => {
    const big = JSON.stringify({ key: "x".repeat(1024 * 1024) });
    const res = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      rawBody: big,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.body.detail).toContain("1 MiB");
  });

  it("refuses a body that is not JSON with 415", async () => {
    const res = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      rawBody: "key=x",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
  });

  it("asks for credentials before looking at the body", async () => {
    const res = await api("/v2/tag-keys", {
      method: "POST",
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
  });

  it("answers unknown API routes with a JSON 404 and unsupported methods with 405 and Allow", async () => {
    // The version roots too, and paths that `..` folds back onto them.
    for (const path of ["/v2/nothing-here", "/v2", "/v2/", "/v1/", "/v2/tag-keys/.."]) {
      const unknown = await api(path, { key: tenant.keys.viewer, method: "DELETE" });
      expect(unknown.status, path).toBe(404);
      expect(unknown.body, path).toEqual({ detail: "Not Found", code: "not_found" });
    }
    const method = await api("/v2/templates", { key: tenant.keys.viewer, method: "PUT" });
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET");
  });

  it("serves the OpenAPI document, /info, /healthz and /readyz without credentials", async () => {
    const doc = await api("/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    // No cluster and no builder are configured for this server: /info says both are a dry run.
    expect((await api("/info")).body).toMatchObject({
      mode: "managed",
      region: "us",
      runtime: "dry_run",
      builder: "dry_run",
    });
    expect((await api("/healthz")).body).toEqual({ status: "ok" });
    expect((await api("/readyz")).body).toEqual({ status: "ok" });
  });
});
