import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { multipart, postMultipart, postParts, sdkRun, tracingUrl } from "../helpers/tracing";

// Run ingest over HTTP: idempotent under retries and concurrency, post/patch merging in either
// order, bad parts refused alone, sizes bounded, and the contract's 404 for anything unknown.

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

async function rowsOf(ids: string[]) {
  return testDb().$queryRawUnsafe<
    {
      id: string;
      name: string | null;
      outputs: unknown;
      end_time: Date | null;
      workspace_id: string;
    }[]
  >(
    `SELECT id::text AS id, name, outputs, end_time, workspace_id::text AS workspace_id
       FROM tracing_runs WHERE id = ANY($1::uuid[]) ORDER BY id`,
    ids,
  );
}

describe("idempotent ingest", () => {
  it("stores a retried multipart batch once, also when the copies arrive together", async () => {
    const root = sdkRun({ name: "root" });
    const child = sdkRun({ name: "child" }, root);
    const parts = [...postParts(root), ...postParts(child)];
    expect((await postMultipart(tenant.keys.editor, parts)).status).toBe(202);
    expect((await postMultipart(tenant.keys.editor, parts)).status).toBe(202);
    const together = await Promise.all(
      Array.from({ length: 6 }, () => postMultipart(tenant.keys.editor, parts)),
    );
    expect(together.map((r) => r.status)).toEqual(Array(6).fill(202));
    const rows = await rowsOf([root.id, child.id]);
    expect(rows).toHaveLength(2);
  });

  it("merges a post and its patch, in either order, the patch's fields winning", async () => {
    const inOrder = sdkRun({ name: "in-order" });
    const patchFirst = sdkRun({ name: "patch-first" });
    const finish = (run: Record<string, unknown>) => ({
      id: run.id,
      trace_id: run.trace_id,
      dotted_order: run.dotted_order,
      end_time: Date.now(),
      outputs: { answer: 42 },
    });
    const post = await api("/api/v1/runs/batch", {
      key: tenant.keys.editor,
      method: "POST",
      body: { post: [inOrder], patch: [finish(patchFirst)] },
    });
    expect(post.status).toBe(202);
    const patch = await api("/api/v1/runs/batch", {
      key: tenant.keys.editor,
      method: "POST",
      body: { post: [{ ...patchFirst, outputs: { answer: "stale" } }], patch: [finish(inOrder)] },
    });
    expect(patch.status).toBe(202);
    for (const id of [inOrder.id, patchFirst.id]) {
      const run = await api(`/api/v1/runs/${id}`, { key: tenant.keys.viewer });
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ id, status: "success", outputs: { answer: 42 } });
      expect(run.body.name).toMatch(/in-order|patch-first/);
      expect(run.body.inputs).toEqual({ question: "hi" });
    }
  });

  it("takes single runs by POST /runs and PATCH /runs/{id}", async () => {
    const run = sdkRun({ name: "single" });
    const created = await api("/api/v1/runs", {
      key: tenant.keys.editor,
      method: "POST",
      body: run,
    });
    expect(created.status).toBe(202);
    const patched = await api(`/api/v1/runs/${run.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { end_time: Date.now(), error: "boom" },
    });
    expect(patched.status).toBe(202);
    const read = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    expect(read.body).toMatchObject({ name: "single", status: "error", error: "boom" });
    const unknown = await api(`/api/v1/runs/${randomUUID()}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { end_time: Date.now() },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
  });

  it("never overwrites a run of another workspace", async () => {
    const mine = sdkRun({ name: "mine", outputs: { secret: 1 } });
    expect((await postMultipart(tenant.keys.editor, postParts(mine))).status).toBe(202);
    const theirs = await postMultipart(
      other.keys.editor,
      postParts({ ...mine, name: "theirs", outputs: { secret: 2 } }, "patch"),
    );
    expect(theirs.status).toBe(422);
    expect(theirs.body.detail).toEqual([
      {
        loc: ["body", `patch.${mine.id}`],
        msg: `Run id ${mine.id} is already in use`,
        type: "run_id_conflict",
      },
    ]);
    const [row] = await rowsOf([mine.id]);
    expect(row).toMatchObject({
      name: "mine",
      outputs: { secret: 1 },
      workspace_id: tenant.workspaceId,
    });
  });
});

describe("bad payloads", () => {
  it("refuses each bad part with its reason and stores the rest of the batch", async () => {
    const good = sdkRun({ name: "good" });
    const badJson = randomUUID();
    const badOrder = sdkRun({ dotted_order: "yesterday" });
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(good),
      { name: `post.${badJson}`, data: "{not json" },
      { name: "mystery.part", data: "{}" },
      ...postParts(badOrder),
      { name: `post.${randomUUID()}.outputs`, data: "{}" },
      { name: `attachment.${good.id}.picture`, data: Buffer.from([0, 255, 1]), type: "image/png" },
      { name: `attachment.${good.id}.../../etc/passwd`, data: "x", type: "text/plain" },
    ]);
    expect(res.status).toBe(422);
    const byLoc = Object.fromEntries(
      (res.body.detail as { loc: string[]; type: string }[]).map((d) => [
        d.loc.slice(1).join("/"),
        d.type,
      ]),
    );
    expect(byLoc[`post.${badJson}`]).toBe("json_invalid");
    expect(byLoc["mystery.part"]).toBe("unknown_part");
    expect(byLoc[`post.${badOrder.id}/dotted_order`]).toBe("value_error");
    expect(Object.values(byLoc)).toContain("missing");
    expect(byLoc[`attachment.${good.id}.../../etc/passwd`]).toBe("attachment_name_invalid");
    expect(byLoc[`attachment.${good.id}.picture`]).toBeUndefined();
    expect(await rowsOf([good.id])).toHaveLength(1);
    const stored = await api(`/api/v1/runs/${good.id}`, { key: tenant.keys.viewer });
    expect(Object.keys(stored.body.s3_urls)).toEqual(["attachment.picture"]);
  });

  it("answers a part over the size limit with 413 and keeps the others", async () => {
    const good = sdkRun({ name: "kept" });
    const big = sdkRun({ name: "too big" });
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(good),
      { name: `post.${big.id}`, data: JSON.stringify(big) },
      {
        name: `post.${big.id}.inputs`,
        data: JSON.stringify({ text: "x".repeat(8 * 1024 * 1024 + 10) }),
      },
    ]);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
    expect(res.body.detail).toContain(`post.${big.id}.inputs`);
    expect(await rowsOf([good.id])).toHaveLength(1);
    expect(await rowsOf([big.id])).toHaveLength(0);
  });

  it("refuses compressed bodies (not advertised) and runs outside retention", async () => {
    const { body, contentType } = multipart(postParts(sdkRun()));
    const res = await fetch(`${tracingUrl()}/runs/multipart`, {
      method: "POST",
      headers: {
        "x-api-key": tenant.keys.editor,
        "content-type": contentType,
        "content-encoding": "gzip",
      },
      body: new Uint8Array(gzipSync(body)),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { code: string }).code).toBe("unsupported_media_type");
    const old = sdkRun({}, undefined, new Date(Date.now() - 40 * 24 * 3600 * 1000));
    const stale = await api("/api/v1/runs/batch", {
      key: tenant.keys.editor,
      method: "POST",
      body: { post: [old] },
    });
    expect(stale.status).toBe(422);
    expect(stale.body.detail[0]).toMatchObject({ loc: ["body", "post", 0], type: "too_old" });
  });

  it("lets viewers read but not write", async () => {
    const res = await postMultipart(tenant.keys.viewer, postParts(sdkRun()));
    expect(res.status).toBe(403);
  });
});

describe("the tracing base's routes", () => {
  it("answers every unknown path or method with the contract's 404", async () => {
    const notFound = { detail: "Not Found", code: "not_found" };
    const key = tenant.keys.editor;
    for (const [method, path] of [
      ["GET", "/api/v1/nothing-here"],
      ["POST", "/api/v1/runs/stats/extra"],
      ["POST", "/api/v1/otel/v1/metrics"],
      ["GET", "/api/v1/otel/v1/traces"],
      ["DELETE", "/api/v1/runs/multipart"],
      ["GET", "/api/v1/runs/multipart"],
      ["PUT", "/api/v1/sessions"],
      ["DELETE", `/api/v1/runs/${randomUUID()}`],
      ["POST", `/api/v1/runs/${randomUUID()}/tree`],
      ["DELETE", `/api/v1/runs/${randomUUID()}/attachments/picture`],
      ["PATCH", `/api/v1/sessions/${randomUUID()}`],
      ["POST", "/api/v1/info"],
    ] as const) {
      const res = await api(path, { key, method });
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 404,
        body: notFound,
      });
    }
    const notUuid = await api("/api/v1/runs/not-a-uuid", { key });
    expect(notUuid.status).toBe(404);
  });

  it("limits the run query by the spec's row for API keys", async () => {
    const res = await api("/api/v1/runs/query", {
      key: tenant.keys.admin,
      method: "POST",
      body: { limit: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"runs-query-api-key";q=15;w=10');
    const lookup = await api(`/api/v1/runs/${randomUUID()}`, { key: tenant.keys.admin });
    expect(lookup.headers.get("ratelimit-policy")).toBe('"run-lookup-api-key";q=30;w=60');
  });

  it("pages a query with its cursor", async () => {
    const session = `paging-${randomUUID()}`;
    const runs = Array.from({ length: 5 }, (_, i) =>
      sdkRun({ session_name: session, name: `r${i}` }, undefined, new Date(Date.now() - i * 1000)),
    );
    await api("/api/v1/runs/batch", {
      key: tenant.keys.editor,
      method: "POST",
      body: { post: runs },
    });
    const project = (await api(`/api/v1/sessions?name=${session}`, { key: tenant.keys.viewer }))
      .body[0];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { runs: { name: string }[]; cursors: { next: string | null } } } =
        await api("/api/v1/runs/query", {
          key: tenant.keys.viewer,
          method: "POST",
          body: { session: [project.id], limit: 2, cursor, select: ["name"] },
        });
      seen.push(...page.body.runs.map((r) => r.name));
      cursor = page.body.cursors.next;
    } while (cursor);
    expect(seen).toEqual(["r0", "r1", "r2", "r3", "r4"]);
  });
});
