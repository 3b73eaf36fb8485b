import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import type { Endpoint } from "../../src/server/rest/endpoint";
import { endpointGroups } from "../../src/server/rest/endpoints";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Thousands of malformed bodies, query strings and ids at every route: none may answer 5xx.
// 40 per route in `npm test` (about 4,000 requests); FUZZ_RUNS=500 for a deeper run.

const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 40);
const endpoints = Object.values(endpointGroups).flatMap(
  (group) => Object.values(group) as Endpoint[],
);

const nasty = fc.constantFrom(
  "",
  " ",
  "null",
  "undefined",
  "-1",
  "1e309",
  "NaN",
  "%00",
  "\u0000",
  "../../etc/passwd",
  "' OR 1=1 --",
  "😀",
  "a".repeat(5000),
  "00000000-0000-0000-0000-000000000000",
);
const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), nasty);
const idLike = fc.oneof(fc.uuid(), text);

/** Member names the schema knows (one level down too), so values land on real fields. */
function knownKeys(schema: z.ZodType | undefined): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const keys: string[] = [];
  for (const [key, value] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    keys.push(key);
    let inner: unknown = value;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
      inner = (inner as z.ZodOptional).unwrap();
    if (inner instanceof z.ZodObject) keys.push(...Object.keys(inner.shape));
  }
  return keys;
}

function bodyArbitrary(endpoint: Endpoint) {
  const keys = knownKeys(endpoint.body);
  const value = fc.oneof(fc.jsonValue(), text, fc.array(fc.jsonValue(), { maxLength: 3 }));
  const shaped = keys.length
    ? fc.dictionary(
        fc.constantFrom(...keys),
        fc.oneof(value, fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 })),
        { maxKeys: 8 },
      )
    : fc.dictionary(fc.string(), value, { maxKeys: 4 });
  return fc.oneof(
    shaped.map((b) => ({ raw: JSON.stringify(b), type: "application/json" })),
    fc.jsonValue().map((b) => ({ raw: JSON.stringify(b), type: "application/json" })),
    text.map((raw) => ({ raw, type: "application/json" })),
    text.map((raw) => ({ raw, type: "text/plain" })),
  );
}

function queryArbitrary(endpoint: Endpoint) {
  const names = [...knownKeys(endpoint.query), "x"];
  return fc.dictionary(
    fc.constantFrom(...names),
    fc.oneof(
      text,
      fc.integer().map(String),
      fc.array(fc.uuid(), { maxLength: 3 }).map((a) => a.join(",")),
    ),
    { maxKeys: 5 },
  );
}

/** The status of a streaming GET; an open stream is closed at once. */
async function streamStatus(path: string): Promise<number> {
  const res = await fetch(`${inject("baseUrl")}${path}`, {
    headers: { "x-api-key": tenant.keys.admin },
  });
  if (res.status >= 400) expect(await res.json()).toHaveProperty("detail");
  else await res.body?.cancel();
  return res.status;
}

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

describe("fuzz: malformed input never produces a 5xx", () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(idLike, { minLength: 4, maxLength: 4 }),
          queryArbitrary(endpoint),
          bodyArbitrary(endpoint),
          async (ids, query, body) => {
            let i = 0;
            const path = endpoint.path.replace(/\{\w+\}/g, () =>
              encodeURIComponent(ids[i++] ?? ""),
            );
            const search = new URLSearchParams(query as Record<string, string>).toString();
            // A live stream that opened answers 200 and never ends: its status is the result.
            if (endpoint.responseType === "text/event-stream") {
              const status = await streamStatus(`${path}${search ? `?${search}` : ""}`);
              expect(status, `${endpoint.method} ${path}?${search}`).toBeLessThan(500);
              return;
            }
            const res = await api(`${path}${search ? `?${search}` : ""}`, {
              key: tenant.keys.admin,
              method: endpoint.method,
              ...(endpoint.body
                ? { rawBody: body.raw, headers: { "content-type": body.type } }
                : {}),
            });
            expect(
              res.status,
              `${endpoint.method} ${path}?${search} ${body.raw.slice(0, 200)} -> ${res.text.slice(0, 300)}`,
            ).toBeLessThan(500);
            if (res.status >= 400) expect(res.body).toHaveProperty("detail");
          },
        ),
        { numRuns: RUNS_PER_ENDPOINT },
      );
    });
  }
});

// Issue 11: deep nesting, lone surrogates and huge strings on every JSON route, in every field.
describe("fuzz: hostile JSON never produces a 5xx", () => {
  const deep = "[".repeat(3000) + "]".repeat(3000);
  const huge = JSON.stringify("a".repeat(700_000));
  for (const endpoint of endpoints.filter((e) => e.body)) {
    it(`${endpoint.method} ${endpoint.path}`, async () => {
      const keys = [...new Set([...knownKeys(endpoint.body), "x"])];
      const bodies = [
        deep,
        `{"${keys[0]}": ${deep}}`,
        `{"\\ud800": 1}`,
        ...keys.flatMap((k) => [
          `{"${k}": "lone \\udc00 surrogate"}`,
          `{"${k}": ${huge}}`,
          `{"${k}": {"${keys[0]}": ["\\ud83d"]}}`,
        ]),
      ];
      const path = endpoint.path.replace(/\{\w+\}/g, () => "00000000-0000-4000-8000-000000000000");
      for (const rawBody of bodies) {
        const res = await api(path, {
          key: tenant.keys.admin,
          method: endpoint.method,
          rawBody,
          headers: { "content-type": "application/json" },
        });
        expect(
          res.status,
          `${path} ${rawBody.slice(0, 80)} -> ${res.text.slice(0, 300)}`,
        ).toBeLessThan(500);
        expect(res.body).toHaveProperty("detail");
        expect(res.text.length).toBeLessThan(10_000);
      }
    });
  }
});
