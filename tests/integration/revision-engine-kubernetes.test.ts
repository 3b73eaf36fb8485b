import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../src/server/db";
import { deployUploadedSource } from "../../testing/uploads";
import { createDeployment } from "../../src/server/services/deployments/create";
import { patchDeployment } from "../../src/server/services/deployments/patch";
import { createTestDatabase } from "../../testing/database";
import { CRASH_LOG, startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { startWorkerProcess, type RunningWorker } from "../../testing/server";
import { waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { sampleProject, tarGz } from "../helpers/tarball";

// The engine with a cluster: a worker of our own whose kubeconfig names the fake API server
// (testing/fake-kube-api.ts), on a database of our own. A revision is DEPLOYED only once its
// rollout is available; a rollout that fails ends DEPLOY_FAILED with the cluster's reason and
// the previous revision stays active.

let database: { url: string; drop: () => Promise<void> };
let db: Db;
let tenant: Tenant;
let kube: FakeKubeApi;
let worker: RunningWorker;

beforeAll(async () => {
  database = await createTestDatabase("hangar_kube");
  db = createDb(database.url, 3);
  tenant = await createTenant(db);
  kube = await startFakeKubeApi();
  worker = await startWorkerProcess({
    DATABASE_URL: database.url,
    HANGAR_KUBECONFIG: kube.kubeconfig(),
    // The key this process stores uploads with (the run's), so the worker can read them.
    HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
    HANGAR_ROLLOUT_TIMEOUT_SECONDS: "20",
    HANGAR_QUEUE_POLL_SECONDS: "0.5",
    // The engine alone: the health watch (tested in runtime-observed and e2e deployment-health) would
    // judge the fake cluster's crash loop 250 ms after the failed rollout and race the reads
    // below. Its first judgement comes after this file is done.
    HANGAR_HEALTH_SETTLE_MS: "600000",
    HANGAR_HEALTH_RESYNC_SECONDS: "600",
  });
});
afterAll(async () => {
  await worker?.stop();
  await kube?.stop();
  await db?.$disconnect();
  await database?.drop();
});

const deployLog = async (revisionId: string) =>
  (
    await db.revisionLog.findMany({
      where: { revisionId, stream: "deploy" },
      orderBy: { seq: "asc" },
    })
  ).map((l) => l.line);

describe("a deployment on Kubernetes", () => {
  it("is DEPLOYED once available; a crash-looping revision fails and the first stays active", async () => {
    kube.setRollout("ready", { readyAfterReads: 1 });
    const created = await createDeployment(db, tenant.actors.editor, {
      name: "on-kube",
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: "registry.example/agent:1" },
    } as Parameters<typeof createDeployment>[2]);
    const first = await waitForRevision(created.latest_revision_id!, undefined, { db });
    expect(first).toMatchObject({
      status: "DEPLOYED",
      runtime: "kubernetes",
      statusMessage: "Revision 1 is running on Kubernetes.",
    });
    expect(await deployLog(first.id)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Waiting for the rollout \(up to 20s\)$/),
        expect.stringMatching(/^Deployment \S+\/on-kube is available$/),
      ]),
    );
    expect(await db.deployment.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      status: "READY",
      activeRevisionId: first.id,
      runtime: "kubernetes",
    });

    kube.setRollout("crash_loop", { image: "registry.example/agent:2" });
    const patched = await patchDeployment(db, tenant.actors.editor, created.id, {
      source_revision_config: { image_uri: "registry.example/agent:2" },
    });
    const second = await waitForRevision(patched.deployment.latest_revision_id!, undefined, {
      db,
    });
    expect(second.status).toBe("DEPLOY_FAILED");
    expect(second.statusMessage).toMatch(
      /^Rollout failed: Deployment \S+\/on-kube: container server is crash-looping \(exit code 1, Error\): /,
    );
    expect(second.statusMessage).toContain(CRASH_LOG);
    const log = await deployLog(second.id);
    expect(log).toContain(second.statusMessage);
    expect(log.at(-1)).toBe("Revision 1 stays active.");
    expect(await db.deployment.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      status: "READY",
      activeRevisionId: first.id,
    });
  }, 60_000);

  it("ends a revision from source BUILD_FAILED when no builder could make its image", async () => {
    // The deploy client's create, upload, then its PATCH naming it.
    const deployment = await deployUploadedSource(db, tenant.actors.editor, {
      name: "from-source",
      archive: tarGz(sampleProject()),
    });
    const revision = await waitForRevision(deployment.latest_revision_id!, undefined, {
      db,
    });
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toBe(
      "No image builder is configured (HANGAR_BUILDER), so nothing was built and there is no image to deploy to the cluster: the operator sets HANGAR_BUILDER (README, Builds).",
    );
    // Nothing named after an image that does not exist reached the cluster.
    expect(kube.requests.some((r) => r.method === "PATCH" && r.path.includes("from-source"))).toBe(
      false,
    );
  }, 60_000);
});
