import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type Db } from "../../src/server/db";
import { STATUS_CONTEXT } from "../../src/server/services/previews/commit-status";
import {
  postQueuedStatuses,
  queueCommitStatus,
} from "../../src/server/services/previews/status-outbox";
import {
  DEFAULT_TOKEN,
  SAMPLE_FILES,
  startCodehostServer,
  type CodehostServer,
} from "../../testing/codehost-server";
import { createTestDatabase } from "../../testing/database";
import {
  startServer,
  startWorkerProcess,
  type RunningServer,
  type RunningWorker,
} from "../../testing/server";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { createPreviewParent, webhookUrl } from "../helpers/previews";
import { uniqueName } from "../helpers/revision-fixtures";

// Commit statuses of previews under TWO workers of our own (issue 34), on a database of our own
// with a server of our own: what a pull request's head commit receives is exactly pending (at
// the cut), the moves in between, then the outcome, each once and in order, however the two
// workers share the jobs; a build that fails at once still shows pending first; a max_open
// refusal reaches the pull request; an interruption ends it with one `error`. The workers
// (gated: a test holds builds at both) poll only every 10 s, so statuses that arrive
// promptly show the status queue is woken (by the sender, and by itself after each job).

const SECRET = "whsec-preview-statuses-0123456789";
let database: { url: string; drop: () => Promise<void> };
let db: Db;
let tenant: Tenant;
let host: CodehostServer;
let server: RunningServer;
let workers: RunningWorker[] = [];
let integrationId: string;

beforeAll(async () => {
  database = await createTestDatabase("hangar_statuses");
  db = createDb(database.url, 3);
  tenant = await createTenant(db);
  host = await startCodehostServer();
  const own = {
    ...inject("testEnv"),
    DATABASE_URL: database.url,
    // Its own rate-limit counters: the code host's webhook deliveries are anonymous (counted by
    // address, 100 a minute) and must not spend the shared server's budget for that address.
    HANGAR_RATELIMIT_PREFIX: `rl-statuses-${randomUUID()}`,
  };
  const workerEnv = { ...own, HANGAR_QUEUE_POLL_SECONDS: "10", HANGAR_BUILD_CONCURRENCY: "2" };
  [server, ...workers] = await Promise.all([
    startServer(own),
    startWorkerProcess(workerEnv, { gated: true }),
    startWorkerProcess(workerEnv, { gated: true }),
  ]);
  const created = await api("/v1/integrations/codehost", {
    baseUrl: server.url,
    key: tenant.keys.admin,
    method: "POST",
    body: {
      name: uniqueName("host"),
      api_base_url: host.url,
      token: DEFAULT_TOKEN,
      webhook_secret: SECRET,
    },
  });
  expect(created.status, created.text).toBe(201);
  integrationId = created.body.id;
  host.pulls.addWebhook(webhookUrl(server.url, integrationId), SECRET);
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), ...workers.map((w) => w.stop())]);
  await host?.stop();
  await db?.$disconnect();
  await database?.drop();
});

const parent = (repo: string, previews: Record<string, unknown> = {}) =>
  createPreviewParent(tenant.keys.editor, host, integrationId, {
    repo,
    previews,
    baseUrl: server.url,
  });

/** What the head commit received, as `state: description`, in the order it arrived. */
const received = (sha: string) =>
  host.pulls.statuses.filter((s) => s.sha === sha).map((s) => `${s.state}: ${s.description}`);

/**
 * Once nothing is left to send (every recorded status sent, no status job waiting or running),
 * what the head commit received: later posts cannot come, so the list is final.
 */
async function settled(sha: string): Promise<string[]> {
  await waitFor(
    async () => {
      const [row] = await db.$queryRaw<{ unsent: bigint; jobs: bigint }[]>`
        SELECT (SELECT count(*) FROM preview_commit_statuses
                WHERE sha = ${sha} AND posted_at IS NULL) AS unsent,
               (SELECT count(*) FROM pgboss.job WHERE name = 'preview-status'
                AND state IN ('created', 'retry', 'active')) AS jobs`;
      return row!;
    },
    (row) => row.unsent === 0n && row.jobs === 0n,
    { what: `every status of ${sha} sent`, timeoutMs: 30_000 },
  );
  return received(sha);
}

const dryRunSequence = (n: number) => [
  `pending: Hangar: revision ${n} is queued.`,
  `pending: Hangar: building revision ${n}.`,
  `pending: Hangar: deploying revision ${n}.`,
  `success: Dry run: revision ${n} was recorded, nothing was started (no cluster configured).`,
];

describe("a preview's commit statuses under two workers", () => {
  it("are pending at the cut, then each move once and in order, for pull requests opened together", async () => {
    await parent("acme/agent-chat", { max_open: 10 });
    const opened = await Promise.all(
      [1, 2, 3, 4].map(() => host.pulls.open({ repo: "acme/agent-chat" })),
    );
    for (const { deliveries } of opened) {
      expect(deliveries[0]!.status).toBe(202);
      expect(deliveries[0]!.body.previews[0]!.outcome).toBe("created");
    }
    for (const { pr, deliveries } of opened) {
      const revision = await waitForRevision(deliveries[0]!.body.deliveries[0]!, undefined, {
        db,
        timeoutMs: 30_000,
      });
      expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
      // Arrive promptly (the workers poll only every 10 s), then nothing more comes.
      await waitFor(
        async () => received(pr.headSha),
        (s) => s.length === 4,
        {
          what: "four statuses",
        },
      );
      expect(await settled(pr.headSha)).toEqual(dryRunSequence(1));
    }
    // Both workers took part in sending.
    for (const worker of workers) expect(worker.output()).toContain("preview commit status sent");

    // A push: the new head hears of revision 2 the same way; the old head keeps its own.
    const { pr } = opened[0]!;
    const firstHead = pr.headSha;
    const pushed = await host.pulls.push("acme/agent-chat", pr.number);
    const second = await waitForRevision(pushed.deliveries[0]!.body.deliveries[0]!, undefined, {
      db,
      timeoutMs: 30_000,
    });
    expect(second.status).toBe("DEPLOYED");
    expect(await settled(pushed.pr.headSha)).toEqual(dryRunSequence(2));
    expect(pushed.pr.headSha).not.toBe(firstHead);
    expect(received(firstHead)).toEqual(dryRunSequence(1));
  });

  it("shows pending first when the build fails at once, then the failure once", async () => {
    await parent("acme/research-agent");
    // No langgraph.json at the head commit: the build stops at once.
    const files: Record<string, string> = { ...SAMPLE_FILES };
    delete files["langgraph.json"];
    const { pr, deliveries } = await host.pulls.open({ repo: "acme/research-agent", files });
    const revision = await waitForRevision(deliveries[0]!.body.deliveries[0]!, undefined, {
      db,
      timeoutMs: 30_000,
    });
    expect(revision.status).toMatch(/_FAILED$/);
    const statuses = await settled(pr.headSha);
    expect(statuses[0]).toBe("pending: Hangar: revision 1 is queued.");
    expect(statuses.at(-1)).toBe(
      `failure: ${`${revision.status}: ${revision.statusMessage}`.slice(0, 140)}`,
    );
    expect(statuses.filter((s) => s.startsWith("failure"))).toHaveLength(1);
    expect(statuses.slice(1, -1).every((s) => s.startsWith("pending: "))).toBe(true);
    expect(new Set(statuses).size).toBe(statuses.length);
  });

  it("ends an interrupted build with one error, after pending", async () => {
    await parent("acme/support-bot");
    const gates = workers.map((w) => w.gate!);
    for (const gate of gates) await gate.hold({ step: "build" });
    const { pr, deliveries } = await host.pulls.open({ repo: "acme/support-bot" });
    const revisionId = deliveries[0]!.body.deliveries[0]!;
    const previewId = deliveries[0]!.body.previews[0]!.preview_id!;
    try {
      await waitForRevision(revisionId, ["BUILDING"], { db, timeoutMs: 30_000 });
      const stopped = await api(`/v2/deployments/${previewId}/revisions/${revisionId}/interrupt`, {
        baseUrl: server.url,
        key: tenant.keys.editor,
        method: "POST",
      });
      expect(stopped.status, stopped.text).toBe(200);
    } finally {
      for (const gate of gates) await gate.release({ step: "build" });
    }
    expect(await settled(pr.headSha)).toEqual([
      "pending: Hangar: revision 1 is queued.",
      "pending: Hangar: building revision 1.",
      "error: INTERRUPTED: Interrupted by an API key.",
    ]);
    const revision = await waitForRevision(revisionId, undefined, { db });
    expect(revision.status).toBe("INTERRUPTED");
  });

  it("tells a pull request refused by max_open why it has no preview", async () => {
    const rag = await parent("beta-labs/rag-server", { max_open: 1 });
    const first = await host.pulls.open({ repo: "beta-labs/rag-server" });
    expect(first.deliveries[0]!.body.previews[0]!.outcome).toBe("created");
    const second = await host.pulls.open({ repo: "beta-labs/rag-server" });
    const detail = `${rag.name} already has 1 open previews (max_open 1): close a pull request or raise previews.max_open.`;
    expect(second.deliveries[0]!.body.previews[0]).toMatchObject({ outcome: "refused", detail });
    expect(await settled(second.pr.headSha)).toEqual([
      `error: ${`No preview: ${detail}`.slice(0, 140)}`,
    ]);
    const sent = host.pulls.statuses.find((s) => s.sha === second.pr.headSha)!;
    expect(sent).toMatchObject({
      owner: "beta-labs",
      repo: "rag-server",
      context: "hangar/preview",
      target_url: null,
      authorization: `token ${DEFAULT_TOKEN}`,
    });
  });

  it("has one poster per commit: posters racing send each status once, oldest first", async () => {
    const commit = {
      integrationId,
      owner: "acme",
      repo: "agent-chat",
      sha: "c0ffee".repeat(6) + "0000",
    };
    const steps = [1, 2, 3, 4, 5, 6];
    // Each in a transaction of its own, as moves are; the workers are woken for each.
    const ids: string[] = [];
    for (const step of steps) {
      await db.$transaction((tx) =>
        queueCommitStatus(
          tx,
          commit,
          {
            state: step < steps.length ? "pending" : "success",
            description: `step ${step}`,
            targetUrl: null,
            context: STATUS_CONTEXT,
          },
          null,
        ),
      );
      const row = await db.previewCommitStatus.findFirstOrThrow({
        where: { sha: commit.sha },
        orderBy: { seq: "desc" },
      });
      ids.push(row.id);
    }
    // The same status again right after: recorded once.
    await db.$transaction((tx) =>
      queueCommitStatus(
        tx,
        commit,
        {
          state: "success",
          description: `step ${steps.length}`,
          targetUrl: null,
          context: STATUS_CONTEXT,
        },
        null,
      ),
    );
    // A slow code host, and posters of our own racing the two workers' jobs.
    host.setDelay(50);
    try {
      await Promise.all(ids.map((id) => postQueuedStatuses(db, id)));
    } finally {
      host.setDelay(0);
    }
    expect(await settled(commit.sha)).toEqual(
      steps.map((step) => `${step < steps.length ? "pending" : "success"}: step ${step}`),
    );
  });
});
