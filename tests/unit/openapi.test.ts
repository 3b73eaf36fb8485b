import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/server/openapi/document";

process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);

/** Every REST route file under src/app, as an OpenAPI path template and its methods. */
function restRoutes(dir = path.resolve("src/app"), prefix = ""): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (!statSync(full).isDirectory()) continue;
    if (
      name.startsWith("[...") ||
      name.startsWith("[[...") ||
      // Auth.js and tRPC live under /api; the tracing base /api/v1 is REST.
      (prefix === "/api" && (name === "auth" || name === "trpc")) ||
      name.startsWith("(") ||
      name.startsWith("_")
    )
      continue;
    const segment = name.startsWith("[") ? `{${name.slice(1, -1)}}` : name;
    const routePath = `${prefix}/${segment}`;
    if (readdirSync(full).includes("route.ts")) found.push(routePath);
    found.push(...restRoutes(full, routePath));
  }
  return found;
}

describe("OpenAPI document", () => {
  const document = buildOpenApiDocument();

  it("validates as OpenAPI 3.1", async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("documents every REST route file", () => {
    const documented = new Set(Object.keys(document.paths ?? {}));
    // The document itself, and the benchmarks baseline (off unless HANGAR_BENCH), are not API operations.
    const routes = restRoutes().filter((r) => r !== "/openapi.json" && r !== "/bench/baseline");
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
    // ...and every documented path is served by a route file.
    expect([...documented].filter((p) => !routes.includes(p))).toEqual([]);
  });

  it("gives every operation an id, its success response, the error bodies and its parameters", () => {
    for (const [route, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        expect(op.operationId, `${method} ${route}`).toBeTruthy();
        const statuses = Object.keys(op.responses);
        expect(
          statuses.some((s) => s.startsWith("2") || s === "303"),
          `${method} ${route}`,
        ).toBe(true);
        expect(statuses).toContain("500");
        for (const name of route.match(/\{(\w+)\}/g) ?? []) {
          const param = op.parameters?.find((p: any) => p.in === "path" && `{${p.name}}` === name);
          expect(param, `${method} ${route} ${name}`).toBeTruthy();
        }
      }
    }
    const list = (document.paths as any)["/v2/deployments"].get;
    const names = list.parameters.map((p: any) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "limit",
        "offset",
        "name_contains",
        "status",
        "remote_reconciled",
        "tag_value_ids",
        "image_version",
        "deployment_type",
        "deployment_ids",
      ]),
    );
    expect(list.responses["422"].content["application/json"].schema).toBeTruthy();
  });
});

describe("OpenAPI document: listeners", () => {
  const document = buildOpenApiDocument() as any;
  const op = (method: string, route: string) => document.paths?.[route]?.[method];

  it("has the five listener routes and the three protocol calls, the latter with the listener token", () => {
    const routes = [
      ["get", "/v2/listeners", "listListeners"],
      ["post", "/v2/listeners", "createListener"],
      ["get", "/v2/listeners/{listener_id}", "getListener"],
      ["patch", "/v2/listeners/{listener_id}", "patchListener"],
      ["delete", "/v2/listeners/{listener_id}", "deleteListener"],
    ];
    for (const [method, route, id] of routes) expect(op(method!, route!)?.operationId).toBe(id);
    const protocol = [
      ["/v2/listener/work", "claimListenerWork"],
      ["/v2/listener/revisions/{revision_id}/reports", "reportListenerProgress"],
      ["/v2/listener/deployments/{deployment_id}/reports", "reportListenerDeletion"],
    ];
    for (const [route, id] of protocol) {
      expect(op("post", route!)?.operationId).toBe(id);
      expect(op("post", route!)?.security).toEqual([{ ListenerToken: [] }]);
    }
  });

  it("describes both kinds of work and the deletion report", () => {
    const schemas = document.components.schemas;
    const work = JSON.stringify(schemas.ListenerWork);
    expect(work).toContain("ListenerApplyWork");
    expect(work).toContain("ListenerDeleteWork");
    expect(schemas.ListenerDeleteWork.properties.action).toMatchObject({ const: "delete" });
    expect(schemas.ListenerDeletionReport.properties.status.enum).toEqual([
      "DELETED",
      "DELETE_FAILED",
    ]);
  });
});
