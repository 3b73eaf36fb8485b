import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../src/server/db";
import { deleteDeployment } from "../../src/server/services/deployments/delete";
import { deployUploadedSource } from "../../testing/uploads";
import { sampleProject, tarGz } from "../helpers/tarball";
import { createTestDatabase } from "../../testing/database";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { startWorkerProcess, type RunningWorker } from "../../testing/server";

// Workers of our own on a database of our own (the test server's worker never sees it): a
// worker killed mid-step, and a deletion observed before any worker tears it down.

const QUICK_RECOVERY = {
  HANGAR_JOB_EXPIRE_SECONDS: "4",
  // A build job is presumed dead after the build's time limit and the above.
  HANGAR_BUILD_TIMEOUT_SECONDS: "5",
  HANGAR_QUEUE_MAINTENANCE_SECONDS: "1",
  HANGAR_QUEUE_POLL_SECONDS: "0.5",
  HANGAR_WORKER_CONCURRENCY: "1",
};

let database: { url: string; drop: () => Promise<void> };
let db: Db;
let tenant: Tenant;
const workers: RunningWorker[] = [];

const startWorker = async (extra: Record<string, string> = {}, options = { gated: false }) => {
  // The key this process stores uploads with (the run's), so the worker can read them.
  const env = {
    DATABASE_URL: database.url,
    HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
    ...QUICK_RECOVERY,
    ...extra,
  };
  const worker = await startWorkerProcess(env, options);
  workers.push(worker);
  return worker;
};

beforeAll(async () => {
  database = await createTestDatabase("hangar_recovery");
  db = createDb(database.url, 3);
  tenant = await createTenant(db);
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await db.$disconnect();
  await database.drop();
});

/** An uploaded source deployment, as the deploy client makes one: create, upload, patch. */
const createSourceDeployment = (name: string) =>
  deployUploadedSource(db, tenant.actors.editor, {
    name,
    archive: tarGz(sampleProject()),
    sourceConfig: { build_command: "make" },
  });

describe("a worker killed mid-step", () => {
  it("leaves its revision to another worker, which finishes it without redoing finished steps", async () => {
    // Its builds are held at the gate: killed there, the first worker is inside the build step.
    const first = await startWorker({ HANGAR_TEST_HOLD: "build" }, { gated: true });
    const created = await createSourceDeployment("recovered");
    const revisionId = created.latest_revision_id!;
    await first.gate!.waitUntilHeld({ step: "build" });
    await waitForRevision(revisionId, ["BUILDING"], { db, timeoutMs: 20_000 });
    first.process.kill("SIGKILL");
    await new Promise((r) => first.process.once("exit", r));

    await startWorker();
    const done = await waitForRevision(revisionId, ["DEPLOYED"], { db, timeoutMs: 40_000 });
    expect(done.imageRef).toMatch(/^hangar\.local\/builds:[0-9a-f]{64}$/);
    const lines = (
      await db.revisionLog.findMany({ where: { revisionId }, orderBy: { seq: "asc" } })
    ).map((l) => l.line);
    expect(lines).toContain("Resuming BUILDING (attempt 2)");
    // Recorded once each: the source step and the build's result landed with their moves.
    expect(lines.filter((l) => l.startsWith("Revision 1 admitted"))).toHaveLength(1);
    expect(lines.filter((l) => l === "Build finished")).toHaveLength(1);
    expect(lines.filter((l) => l === "Revision 1 deployed")).toHaveLength(1);
    const deployment = await db.deployment.findUniqueOrThrow({ where: { id: created.id } });
    expect(deployment).toMatchObject({ status: "READY", activeRevisionId: revisionId });
  }, 90_000);
});

describe("deletion", () => {
  it("is AWAITING_DELETE with its revisions stopped until a worker tears it down", async () => {
    await Promise.all(workers.map((w) => w.stop()));
    const created = await createSourceDeployment("doomed");
    await deleteDeployment(db, tenant.actors.editor, created.id);
    const waiting = await db.deployment.findUniqueOrThrow({ where: { id: created.id } });
    expect(waiting.status).toBe("AWAITING_DELETE");
    const revision = await db.revision.findUniqueOrThrow({
      where: { id: created.latest_revision_id! },
    });
    expect(revision).toMatchObject({
      status: "INTERRUPTED",
      statusMessage: "The deployment is being deleted.",
    });
    // A second DELETE changes nothing.
    await deleteDeployment(db, tenant.actors.editor, created.id);

    await startWorker();
    await waitFor(
      () => db.deployment.findUnique({ where: { id: created.id } }),
      (row) => row === null,
      { what: "teardown" },
    );
    const again = await createSourceDeployment("doomed");
    expect(again.name).toBe("doomed");
  }, 60_000);
});
