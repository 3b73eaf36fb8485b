import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { Client } from "langsmith";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { uploadStore } from "../../src/server/storage";
import {
  tracingObjectOf,
  sweepExpiredAttachments,
} from "../../src/server/services/tracing/attachments";
import { retentionCutoff } from "../../src/server/services/tracing/partitions";
import { uniqueName } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { postMultipart, postParts, sdkRun, tracingUrl } from "../helpers/tracing";

// What the storage backend keeps for runs (here the data folder, encrypted): attachments
// (`attachment.<run id>.<name>` parts), listed on the run and downloadable only inside the
// workspace, and inputs/outputs past 64 KiB, read back whole; both deleted with their project
// and past the retention.

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

/** Every stored tracing object of a workspace under the server's data folder. */
function objectsOf(workspaceId: string): string[] {
  const root = path.join(inject("testEnv").HANGAR_DATA_DIR!, "uploads", "tracing");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.split(path.sep)[1] === workspaceId && /[0-9a-f]{64}$/.test(f))
    .map((f) => path.join(root, f));
}

/** An attachment's presigned_url: absolute, at the tracing base the client used, signed. */
const signedUrlOf = (runId: string, name: string) =>
  new RegExp(
    `^${tracingUrl()}/public/download\\?run_id=${runId}&${new URLSearchParams({ name }).toString().replaceAll("+", "\\+")}&workspace=[0-9a-f-]{36}&expires=\\d+&signature=[0-9a-f]{64}$`,
  );

async function download(key: string, runId: string, name: string) {
  const res = await fetch(`${tracingUrl()}/runs/${runId}/attachments/${name}`, {
    headers: { "x-api-key": key },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("run attachments", () => {
  it("stores them, lists them on the run and serves their bytes to the workspace only", async () => {
    const run = sdkRun({ session_name: uniqueName("attach"), name: "with files" });
    const picture = randomBytes(70_000);
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.picture`, data: picture, type: "image/png; length=70000" },
      { name: `attachment.${run.id}.notes`, data: "<script>alert(1)</script>", type: "text/html" },
    ]);
    expect(res.status).toBe(202);

    const read = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    expect(read.body.s3_urls).toEqual({
      "attachment.picture": {
        presigned_url: expect.stringMatching(signedUrlOf(run.id, "picture")),
        s3_url: null,
        mime_type: "image/png",
        size: 70_000,
      },
      "attachment.notes": {
        presigned_url: expect.stringMatching(signedUrlOf(run.id, "notes")),
        s3_url: null,
        mime_type: "text/html",
        size: 25,
      },
    });
    expect(read.body).not.toHaveProperty("attachments");
    const { res: got, bytes } = await download(tenant.keys.viewer, run.id, "picture");
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("ratelimit-policy")).toBe('"run-lookup-api-key";q=30;w=60');
    expect(got.headers.get("content-disposition")).toBe('attachment; filename="picture"');
    expect(bytes.equals(picture)).toBe(true);
    const html = await download(tenant.keys.viewer, run.id, "notes");
    expect(html.res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(html.res.headers.get("content-security-policy")).toBe("sandbox");

    // At rest: under ids and a hash of the name, encrypted (the bytes never appear as sent).
    const files = objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id));
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(path.basename(file)).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(file).includes(picture.subarray(0, 64))).toBe(false);
    }

    const theirs = await download(other.keys.editor, run.id, "picture");
    expect(theirs.res.status).toBe(404);
    expect(JSON.parse(theirs.bytes.toString())).toEqual({
      detail: `Run ${run.id} not found`,
      code: "not_found",
    });
    // (A bare `..` or `%2E%2E` never gets here: URL parsing resolves it to the run itself.)
    for (const name of [
      "missing",
      "..%2F..%2Fetc%2Fpasswd",
      "picture%2F..%2Fpicture",
      "__proto__",
    ]) {
      const absent = await download(tenant.keys.viewer, run.id, name);
      expect(absent.res.status).toBe(404);
      expect(JSON.parse(absent.bytes.toString()).code).toBe("not_found");
    }
    const anonymous = await fetch(`${tracingUrl()}/runs/${run.id}/attachments/picture`);
    expect(anonymous.status).toBe(401);
  });

  it("merges a patch's attachments into the post's and keeps them on retries", async () => {
    const run = sdkRun({ session_name: uniqueName("attach") });
    const first = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.a`, data: "first", type: "text/plain" },
    ]);
    expect(first.status).toBe(202);
    const patch = await postMultipart(tenant.keys.editor, [
      ...postParts({ id: run.id, dotted_order: run.dotted_order, end_time: Date.now() }, "patch"),
      { name: `attachment.${run.id}.b`, data: "second", type: "text/plain" },
    ]);
    expect(patch.status).toBe(202);
    // The post again (the SDK retrying) changes nothing.
    const retry = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.a`, data: "first", type: "text/plain" },
    ]);
    expect(retry.status).toBe(202);
    const read = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    expect(Object.keys(read.body.s3_urls).sort()).toEqual(["attachment.a", "attachment.b"]);
    expect((await download(tenant.keys.viewer, run.id, "b")).bytes.toString()).toBe("second");
    expect(objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id))).toHaveLength(2);
  });

  it("serves a name with spaces at its presigned_url", async () => {
    const run = sdkRun({ session_name: uniqueName("attach") });
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.my notes`, data: "spaced", type: "text/plain" },
    ]);
    expect(res.status).toBe(202);
    const read = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    const url = read.body.s3_urls["attachment.my notes"].presigned_url as string;
    expect(url).toMatch(signedUrlOf(run.id, "my notes"));
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe("spaced");
    expect((await download(tenant.keys.viewer, run.id, "my%20notes")).bytes.toString()).toBe(
      "spaced",
    );
  });

  it("refuses an attachment without its run, or under another workspace's run id", async () => {
    const lonely = randomUUID();
    const res = await postMultipart(tenant.keys.editor, [
      { name: `attachment.${lonely}.file`, data: "x", type: "text/plain" },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        loc: ["body", `attachment.${lonely}.file`],
        msg: "An attachment needs its run's post or patch part in the same body",
        type: "missing",
      },
    ]);
    const mine = sdkRun({ session_name: uniqueName("attach") });
    expect((await postMultipart(tenant.keys.editor, postParts(mine))).status).toBe(202);
    const theirs = await postMultipart(other.keys.editor, [
      ...postParts(mine),
      { name: `attachment.${mine.id}.sneaky`, data: "x", type: "text/plain" },
    ]);
    expect(theirs.status).toBe(422);
    expect(theirs.body.detail[0].type).toBe("run_id_conflict");
    expect(objectsOf(other.workspaceId)).toEqual([]);
    const read = await api(`/api/v1/runs/${mine.id}`, { key: tenant.keys.viewer });
    expect(read.body.s3_urls).toEqual({});
  });

  it("travels from the langsmith SDK's multipart ingest", async () => {
    const client = new Client({ apiUrl: tracingUrl(), apiKey: tenant.keys.editor });
    const run = sdkRun({ session_name: uniqueName("sdk-attach") });
    const bytes = new Uint8Array(randomBytes(1000));
    await client.multipartIngestRuns({
      runCreates: [{ ...run, attachments: { report: ["application/pdf", bytes] } }],
    });
    const read = await client.readRun(run.id);
    const s3Urls = (read as unknown as { s3_urls: Record<string, { presigned_url: string }> })
      .s3_urls;
    expect(s3Urls).toMatchObject({
      "attachment.report": { mime_type: "application/pdf", size: 1000 },
    });
    const got = await download(tenant.keys.viewer, run.id, "report");
    expect(got.bytes.equals(Buffer.from(bytes))).toBe(true);
    // What the SDK read is fetched as it is, without the key.
    const presigned = await fetch(s3Urls["attachment.report"]!.presigned_url);
    expect(presigned.status).toBe(200);
    expect(Buffer.from(await presigned.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("goes with its project", async () => {
    const session = uniqueName("attach-doomed");
    const run = sdkRun({ session_name: session });
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.file`, data: "bye", type: "text/plain" },
    ]);
    expect(res.status).toBe(202);
    expect(objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id))).toHaveLength(1);
    const project = (await api(`/api/v1/sessions?name=${session}`, { key: tenant.keys.viewer }))
      .body[0];
    const deleted = await api(`/api/v1/sessions/${project.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(deleted.status).toBe(204);
    expect(objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id))).toEqual([]);
  });

  it("answers 404 for an attachment whose object is gone from the store", async () => {
    const run = sdkRun({ session_name: uniqueName("attach") });
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.file`, data: "soon gone", type: "text/plain" },
    ]);
    expect(res.status).toBe(202);
    for (const file of objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id)))
      rmSync(file);
    const gone = await download(tenant.keys.viewer, run.id, "file");
    expect(gone.res.status).toBe(404);
    expect(JSON.parse(gone.bytes.toString())).toEqual({
      detail: `Run ${run.id} has no attachment file`,
      code: "not_found",
    });
  });

  it("leave with their day once it is past the retention", async () => {
    const run = sdkRun({ session_name: uniqueName("attach") });
    const res = await postMultipart(tenant.keys.editor, [
      ...postParts(run),
      { name: `attachment.${run.id}.today`, data: "kept", type: "text/plain" },
    ]);
    expect(res.status).toBe(202);
    // An attachment of a day long past (ingest refuses such runs; the store does not care).
    const old = tracingObjectOf(
      tenant.workspaceId,
      randomUUID(),
      "2020-01-01T00:00:00Z",
      "x",
      Buffer.from("old"),
    );
    await uploadStore().put(old, Readable.from([Buffer.from("old")]), 100);
    expect(await uploadStore().exists(old)).toBe(true);
    expect(await sweepExpiredAttachments(retentionCutoff(new Date()))).toBeGreaterThanOrEqual(1);
    expect(await uploadStore().exists(old)).toBe(false);
    expect((await download(tenant.keys.viewer, run.id, "today")).bytes.toString()).toBe("kept");
  });
});

describe("large inputs and outputs", () => {
  const big = (size: number) => ({ text: "é".repeat(size / 2), list: [1, 2, 3] });

  async function columns(id: string) {
    const [row] = await testDb().$queryRawUnsafe<
      { inputs: unknown; outputs: unknown; inputs_ref: unknown; outputs_ref: unknown }[]
    >(`SELECT inputs, outputs, inputs_ref, outputs_ref FROM tracing_runs WHERE id = $1::uuid`, id);
    return row!;
  }

  it("keeps past 64 KiB in the storage backend and reads the run back whole", async () => {
    const session = uniqueName("large");
    const inputs = big(200_000);
    const run = sdkRun({ session_name: session, name: "large", inputs });
    const small = sdkRun({ session_name: session, name: "small", inputs: big(1000) });
    expect(
      (await postMultipart(tenant.keys.editor, [...postParts(run), ...postParts(small)])).status,
    ).toBe(202);
    const outputs = big(100_000);
    const patch = await api(`/api/v1/runs/${run.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { outputs, end_time: Date.now() },
    });
    expect(patch.status).toBe(202);

    const stored = await columns(run.id);
    expect(stored.inputs).toBeNull();
    expect(stored.outputs).toBeNull();
    expect(stored.inputs_ref).toMatchObject({ size: Buffer.byteLength(JSON.stringify(inputs)) });
    expect(stored.outputs_ref).toMatchObject({ size: Buffer.byteLength(JSON.stringify(outputs)) });
    expect(await columns(small.id)).toMatchObject({ inputs_ref: null, inputs: big(1000) });
    expect(objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id))).toHaveLength(2);

    const read = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      inputs,
      outputs,
      inputs_s3_urls: null,
      outputs_s3_urls: null,
    });

    // A query does not load them: null, and the SDK's `<field>_s3_urls` says where to read.
    const project = (await api(`/api/v1/sessions?name=${session}`, { key: tenant.keys.viewer }))
      .body[0];
    const query = await api("/api/v1/runs/query", {
      key: tenant.keys.viewer,
      method: "POST",
      body: { session: [project.id], select: ["name", "inputs"] },
    });
    const byName = Object.fromEntries(
      (query.body.runs as Record<string, unknown>[]).map((r) => [r.name, r]),
    );
    expect(byName.large).toEqual({
      id: run.id,
      name: "large",
      inputs: null,
      inputs_s3_urls: {
        ROOT: {
          presigned_url: `/api/v1/runs/${run.id}`,
          s3_url: null,
          size: stored.inputs_ref && (stored.inputs_ref as { size: number }).size,
        },
      },
    });
    expect(byName.small).toMatchObject({ inputs: big(1000), inputs_s3_urls: null });

    // The unmodified SDK lists it (marker and all) and reads it back whole.
    const client = new Client({ apiUrl: tracingUrl(), apiKey: tenant.keys.editor });
    const listed = [];
    for await (const r of client.listRuns({ projectId: project.id })) listed.push(r);
    expect(listed.find((r) => r.id === run.id)!.inputs).toBeNull();
    expect((await client.readRun(run.id)).inputs).toEqual(inputs);

    // A later patch with small outputs wins over the stored ones; a retried post changes nothing.
    expect(
      (
        await api(`/api/v1/runs/${run.id}`, {
          key: tenant.keys.editor,
          method: "PATCH",
          body: { outputs: { answer: "short" } },
        })
      ).status,
    ).toBe(202);
    expect(
      (await postMultipart(tenant.keys.editor, postParts({ ...run, inputs: { other: 1 } }))).status,
    ).toBe(202);
    const again = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    expect(again.body.outputs).toEqual({ answer: "short" });
    expect(again.body.inputs).toEqual(inputs);
    expect(await columns(run.id)).toMatchObject({
      outputs_ref: null,
      outputs: { answer: "short" },
    });

    // An object gone from the store (a delete cut short) reads as absent, never a 500.
    const inputsFile = objectsOf(tenant.workspaceId).find((f) =>
      f.endsWith((stored.inputs_ref as { object: string }).object.split("/").pop()!),
    )!;
    rmSync(inputsFile);
    const without = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
    expect(without.status).toBe(200);
    expect(without.body).toMatchObject({ inputs: null, inputs_s3_urls: null });

    const deleted = await api(`/api/v1/sessions/${project.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(deleted.status).toBe(204);
    // The objects the run names go with it; the outputs' object the small patch replaced was no
    // longer named by it, so it waits for the retention of its day.
    expect(objectsOf(tenant.workspaceId).filter((f) => f.includes(run.id))).toHaveLength(1);
  });
});
