import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { RUN_FIELDS, type RunField } from "../../src/schemas/tracing";
import {
  attachmentLinks,
  checkAttachmentSignature,
} from "../../src/server/services/tracing/attachment-urls";
import { runStore, type RunFilter } from "../../src/server/services/tracing/run-store";
import { toRun } from "../../src/server/services/tracing/runs-read";
import { uniqueName } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { postMultipart, postParts, sdkRun } from "../helpers/tracing";

// The run query's runs are built by PostgreSQL (run-store-json.ts): for every kind of stored
// run, each must be the very JSON toRun makes from the same row (GET /runs/{id} and the
// dashboard still read rows), keys in the same order, and a selection the same fields. Their
// s3_urls, signed URLs, is toRun's own attachmentsView set between the fields PostgreSQL built.

let tenant: Tenant;
let projectId: string;

beforeAll(async () => {
  tenant = await createTenant();
  const project = uniqueName("json");
  const root = sdkRun({ session_name: project, name: "agent", tags: ["a", "b"] });
  const child = sdkRun(
    {
      session_name: project,
      name: "weather tool",
      run_type: "tool",
      error: "TimeoutError: upstream\nsecond line",
      end_time: Date.now(),
      outputs: { n: 1.5, big: 12345678901234, text: 'é ü \u2028 "quoted"' },
      extra: { metadata: { usage_metadata: { input_tokens: 3, output_tokens: 4 } } },
      events: [{ name: "start" }],
    },
    root,
  );
  const grandchild = sdkRun({ session_name: project, name: "pending", inputs: null }, child);
  // Stored in the storage backend (past 64 KiB), with attachments (one name with a space).
  const large = sdkRun({
    session_name: project,
    name: "large",
    inputs: { blob: randomBytes(50_000).toString("hex") },
    serialized: { kind: "x" },
  });
  const bare = sdkRun({ session_name: project, name: "no dotted order" });
  delete (bare as Partial<typeof bare>).dotted_order;
  const res = await postMultipart(tenant.keys.editor, [
    ...[root, child, grandchild, large, bare].flatMap((r) => postParts(r)),
    { name: `attachment.${large.id}.my notes`, data: "notes", type: "text/plain" },
    { name: `attachment.${large.id}.picture`, data: randomBytes(10), type: "image/png" },
  ]);
  expect(res.status).toBe(202);
  expect(res.body.accepted).toBe(5);
  const read = await api(`/api/v1/runs/${root.id}`, { key: tenant.keys.viewer });
  projectId = read.body.session_id;
});

const links = () => attachmentLinks(tenant.workspaceId, "http://hangar.test");

const filter = (): RunFilter => ({
  workspaceId: tenant.workspaceId,
  projectIds: [projectId],
  order: "desc",
  limit: 100,
});

describe("run query JSON built by PostgreSQL", () => {
  it("is toRun's JSON of the same rows, keys in order", async () => {
    const rows = await runStore.findRuns(testDb(), filter());
    const at = links();
    const built = await runStore.findRunsJson(testDb(), filter(), at);
    expect(rows).toHaveLength(5);
    expect(built.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(built.map((r) => r.sort_time)).toEqual(rows.map((r) => r.sort_time));
    for (const [i, row] of rows.entries()) {
      const fromSql = JSON.parse(built[i]!.json) as Record<string, unknown>;
      // JSON's own round trip: what the answer said before (JSON.stringify of toRun).
      const fromRow = JSON.parse(JSON.stringify(toRun(row, at))) as Record<string, unknown>;
      expect(fromSql).toEqual(fromRow);
      expect(Object.keys(fromSql)).toEqual(Object.keys(fromRow));
    }
    const large = rows.find((r) => r.name === "large")!;
    expect(large.inputs_ref).not.toBeNull();
    expect(Object.keys(large.attachments as object)).toHaveLength(2);
    // Signed absolute URLs, the name with a space encoded.
    const { s3_urls } = JSON.parse(built.find((r) => r.id === large.id)!.json);
    const url = new URL(s3_urls["attachment.my notes"].presigned_url);
    expect(`${url.origin}${url.pathname}`).toBe("http://hangar.test/api/v1/public/download");
    expect(url.searchParams.get("run_id")).toBe(large.id);
    expect(url.searchParams.get("name")).toBe("my notes");
    expect(url.searchParams.get("workspace")).toBe(tenant.workspaceId);
    expect(Number(url.searchParams.get("expires"))).toBe(at.expiresAt);
    const signed = { workspaceId: tenant.workspaceId, runId: large.id, name: "my notes" };
    const check = (name: string) =>
      checkAttachmentSignature(
        { ...signed, name },
        url.searchParams.get("expires"),
        url.searchParams.get("signature"),
      );
    expect(check("my notes")).toBe("ok");
    expect(check("picture")).toBe("invalid");
    expect(s3_urls["attachment.picture"]).toMatchObject({ s3_url: null, mime_type: "image/png" });
  });

  it("selects the fields asked for, in their order", async () => {
    const at = links();
    const rows = await runStore.findRuns(testDb(), filter());
    // s3_urls in the middle, first, last, alone, and not at all.
    const selections: RunField[][] = [
      ["id", "inputs", "name", "parent_run_ids", "s3_urls", "tags"],
      ["s3_urls", "name"],
      ["name", "s3_urls"],
      ["s3_urls"],
      ["id", "inputs", "name"],
    ];
    for (const select of selections) {
      const built = await runStore.findRunsJson(testDb(), filter(), at, select);
      for (const [i, row] of rows.entries()) {
        const full = JSON.parse(JSON.stringify(toRun(row, at))) as Record<string, unknown>;
        const fromSql = JSON.parse(built[i]!.json) as Record<string, unknown>;
        expect(Object.keys(fromSql)).toEqual(select);
        for (const field of select) expect(fromSql[field]).toEqual(full[field]);
      }
    }
    const every = await runStore.findRunsJson(testDb(), filter(), at, RUN_FIELDS);
    expect(Object.keys(JSON.parse(every[0]!.json))).toEqual([...RUN_FIELDS]);
  });
});
