import { beforeAll, describe, expect, it } from "vitest";
import { env } from "../../src/env";
import { LOG_ANSWER_BYTES } from "../../src/lib/log-text";
import { createCaller } from "../../src/server/api/root";
import { runInGroup } from "../../src/server/jobs/builder/images/process-group";
import { liveLog } from "../../src/server/jobs/engine/live-log";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api, type ApiResponse } from "../helpers/http";
import { createDeployment } from "../helpers/revision-fixtures";

// What a build prints, bounded and harmless at every door (issue 32, finding 6). A real process
// floods its output through the worker's reader (process-group.ts, line-reader.ts) into the
// revision's build log (live-log.ts) on the run's database, as a build step does; then the
// server under test serves it to the deploy client (REST) and the dashboard (tRPC): at most
// the per-revision cap is stored, one line says what was not kept, an endless line is cut with
// a mark, no answer passes LOG_ANSWER_BYTES yet paging reaches every line, and no escape
// sequence comes back.

const db = testDb();
let tenant: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
});

type Entry = { id: string; message: string; level: string; timestamp: string };
const ESC = "\x1b";

/** A revision of a fresh deployment, finished (its build log no longer grows but by us). */
async function finishedRevision() {
  const created = await createDeployment(tenant.keys.editor);
  const revision = await waitForRevision(created.latest_revision_id);
  return { deploymentId: created.id as string, revisionId: revision.id };
}

/** Runs `script` with sh as a build step runs its builder: every line into the build log. */
async function buildOutput(revisionId: string, script: string) {
  const output = await liveLog(db, revisionId, "build");
  const run = await runInGroup("sh", ["-c", script], {
    env: { PATH: process.env.PATH! },
    signal: new AbortController().signal,
    onLine: (line) => output.log([line]),
  });
  expect(run.code).toBe(0);
  await output.flush();
}

const stored = (revisionId: string) =>
  db.revisionLog.findMany({ where: { revisionId, stream: "build" }, orderBy: { id: "asc" } });

const answerBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Every page of the deploy client's build_logs, in `order`, checking each page's size. */
async function readAll(deploymentId: string, revisionId: string, order: "asc" | "desc") {
  const path = `/v1/projects/${deploymentId}/revisions/${revisionId}/build_logs`;
  const entries: Entry[] = [];
  let offset: string | null = null;
  const sizes: number[] = [];
  for (let page = 0; page < 1000; page++) {
    const res: ApiResponse<{ logs: Entry[]; next_offset: string | null }> = await api(path, {
      key: tenant.keys.viewer,
      method: "POST",
      body: { limit: 1000, order, ...(offset ? { offset } : {}) },
    });
    expect(res.status, res.text).toBe(200);
    expect(answerBytes(res.body.logs)).toBeLessThanOrEqual(LOG_ANSWER_BYTES);
    sizes.push(res.body.logs.length);
    entries.push(...res.body.logs);
    offset = res.body.next_offset;
    if (!offset) break;
  }
  return { entries, sizes };
}

describe("a build that floods its log", () => {
  it("stores at most HANGAR_BUILD_LOG_MAX_LINES lines, then one line saying what was not kept", async () => {
    const { deploymentId, revisionId } = await finishedRevision();
    const before = (await stored(revisionId)).length;
    await buildOutput(revisionId, "yes flood-line | head -n 60000; echo after-the-flood");

    const rows = await stored(revisionId);
    const cap = env.HANGAR_BUILD_LOG_MAX_LINES;
    expect(rows).toHaveLength(cap + 1);
    const kept = cap - before;
    expect(rows.slice(before, cap).every((r) => r.line === "flood-line")).toBe(true);
    const notKept = rows.at(-1)!.line;
    expect(notKept).toBe(
      `… ${(60_001 - kept).toLocaleString("en-US")} more lines (${((60_000 - kept) * 10 + 15).toLocaleString("en-US")} bytes) of output were not kept: a revision's build log keeps at most 20,000 lines and 4,194,304 bytes (HANGAR_BUILD_LOG_MAX_LINES, HANGAR_BUILD_LOG_MAX_BYTES). The build went on.`,
    );

    // The deploy client reads it all, and ends with that line.
    const { entries } = await readAll(deploymentId, revisionId, "asc");
    expect(entries).toHaveLength(rows.length);
    expect(entries.at(-1)!.message).toBe(notKept);
    // The dashboard's procedure pages the same lines.
    const caller = createCaller({ db, actor: tenant.actors.viewer, requestId: "bounds" });
    const last = await caller.revisions.logs({
      deploymentId,
      revisionId,
      after: String(rows.at(-2)!.id),
      limit: "10",
    });
    expect(last.resources.map((l) => l.line)).toEqual([notKept]);
  }, 60_000);

  it("a retried step goes on from what is stored: past the cap nothing more is kept", async () => {
    const { revisionId } = await finishedRevision();
    await buildOutput(revisionId, "yes a | head -n 25000");
    const first = (await stored(revisionId)).length;
    expect(first).toBe(env.HANGAR_BUILD_LOG_MAX_LINES + 1);
    // The same step again (a worker died mid-build): only its own "not kept" line lands.
    await buildOutput(revisionId, "yes b | head -n 100");
    const rows = await stored(revisionId);
    expect(rows).toHaveLength(first + 1);
    expect(rows.at(-1)!.line).toMatch(/^… 100 more lines \(100 bytes\) of output were not kept/);
  }, 60_000);
});

describe("long lines, escape sequences and answers bounded in bytes", () => {
  let deploymentId: string;
  let revisionId: string;
  const width = 15_000;

  beforeAll(async () => {
    ({ deploymentId, revisionId } = await finishedRevision());
    // A title and a clear screen, an 8 MiB line without a newline, then long lines past the
    // byte cap (400 × 15,000 characters = 6 MB).
    await buildOutput(
      revisionId,
      [
        "printf '\\033]0;pwned\\007\\033[2J\\033[3Jafter the escapes\\r\\n'",
        "printf 'bell\\007 nul\\000 del\\177 tab\\tkept\\n'",
        "head -c 8388608 /dev/zero | tr '\\0' a",
        "echo",
        `yes "$(head -c ${width} /dev/zero | tr '\\0' x)" | head -n 400`,
      ].join("; "),
    );
  }, 60_000);

  it("stores the escapes harmless, the endless line cut with its mark, bytes within the cap", async () => {
    const rows = await stored(revisionId);
    const lines = rows.map((r) => r.line);
    expect(lines).toContain("␛]0;pwned␇␛[2J␛[3Jafter the escapes");
    expect(lines).toContain("bell␇ nul␀ del␡ tab\tkept");
    const endless = lines.find((l) => l.startsWith("aaaa"))!;
    expect(endless).toHaveLength(env.HANGAR_LOG_MAX_LINE);
    expect(endless).toMatch(/^a+… \[cut: 8,388,608 characters, 8,372,273 not kept\]$/);
    expect(lines.join("")).not.toMatch(/[^\P{Cc}\t\n]/u);
    const bytes = lines.slice(0, -1).reduce((n, l) => n + Buffer.byteLength(l), 0);
    expect(bytes).toBeLessThanOrEqual(env.HANGAR_BUILD_LOG_MAX_BYTES);
    const kept = lines.filter((l) => l === "x".repeat(width)).length;
    expect(kept).toBeGreaterThan(200);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^… ${400 - kept} more lines \\(${((400 - kept) * width).toLocaleString("en-US")} bytes\\) of output were not kept`,
      ),
    );
  });

  it("the deploy client's build_logs: pages within the byte budget reach every line, both ways", async () => {
    const ids = (await stored(revisionId)).map((r) => String(r.id));
    const asc = await readAll(deploymentId, revisionId, "asc");
    expect(asc.entries.map((e) => e.id)).toEqual(ids);
    // Cut by bytes, not by the limit, yet each carried a next_offset.
    expect(Math.max(...asc.sizes)).toBeLessThan(1000);
    expect(asc.sizes.length).toBeGreaterThanOrEqual(4);
    const desc = await readAll(deploymentId, revisionId, "desc");
    expect(desc.entries.map((e) => e.id)).toEqual([...ids].reverse());
    expect(JSON.stringify(asc.entries)).not.toContain("\\u001b");
    expect(asc.entries.map((e) => e.message)).toContain("␛]0;pwned␇␛[2J␛[3Jafter the escapes");
  }, 60_000);

  it("GET .../logs and tRPC revisions.logs: pages within the budget, offset reads on", async () => {
    // This route reads both streams: the build log and the deploy log.
    const rows = await db.revisionLog.findMany({ where: { revisionId }, orderBy: { id: "asc" } });
    const ids = rows.map((r) => Number(r.id));
    const path = `/v2/deployments/${deploymentId}/revisions/${revisionId}/logs`;
    const caller = createCaller({ db, actor: tenant.actors.viewer, requestId: "bounds" });
    for (const read of [
      async (offset: number) =>
        (await api(`${path}?limit=1000&offset=${offset}`, { key: tenant.keys.viewer })).body,
      (offset: number) =>
        caller.revisions.logs({ deploymentId, revisionId, limit: "1000", offset: String(offset) }),
    ]) {
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const page = await read(offset);
        expect(answerBytes(page.resources)).toBeLessThanOrEqual(LOG_ANSWER_BYTES);
        if (!page.resources.length) break;
        expect(page.resources.length).toBeLessThan(1000);
        seen.push(...page.resources.map((l: { id: number }) => l.id));
        expect(page.offset).toBe(offset + page.resources.length);
        offset = page.offset;
      }
      expect(seen).toEqual(ids);
    }
  }, 60_000);

  it("serves rows stored before the rule harmless and cut too", async () => {
    const line = `${ESC}]0;old title\x07${ESC}[2J${"o".repeat(100_000)}`;
    const old = await db.revisionLog.create({
      data: { revisionId, seq: 1_000_000, stream: "build", line },
    });
    const res = await api(`/v1/projects/${deploymentId}/revisions/${revisionId}/build_logs`, {
      key: tenant.keys.viewer,
      method: "POST",
      body: { order: "desc", limit: 1 },
    });
    expect(res.body.logs[0].id).toBe(String(old.id));
    const message: string = res.body.logs[0].message;
    expect(message.startsWith("␛]0;old title␇␛[2Joooo")).toBe(true);
    expect(message.length).toBeLessThanOrEqual(env.HANGAR_LOG_MAX_LINE);
    expect(message.length).toBeGreaterThan(env.HANGAR_LOG_MAX_LINE - 50);
    expect(message).toMatch(/… \[cut: 100,018 characters, [\d,]+ not kept\]$/);
    expect(line).toHaveLength(100_018);
    await db.revisionLog.delete({ where: { id: old.id } });
  });
});
