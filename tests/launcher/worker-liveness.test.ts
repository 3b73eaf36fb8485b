import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../testing/database";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { api } from "../helpers/http";
import { LAUNCHER_KEY, launchHangar, newDataDir, type Launched } from "../helpers/launcher";

// A worker killed mid-step under `npm start` (issue 27): its revision's step is handed back and
// resumed by the next worker to look (here the one npm start restarts), within seconds of the
// kill (the test allows 45 s: on a loaded machine the restarted worker's own start is most of
// it; the time is printed), however long the queue's job expiry is (15 minutes by default, left
// so). A live worker's long step (a rollout wait held 18 s, past the lifeline's 3 s look and its
// 10 s grace, with a second worker looking on) is never taken over.
// The step is a real wait: the revision's rollout on a fake Kubernetes API that answers "not yet
// available" until the test lets it become ready.

const RESUMED = "Resumed after its worker stopped";
const RECOVERY_MS = 45_000;
/** A step held past the lifeline's look and grace, so a takeover would have happened by then. */
const LONG_STEP_MS = 18_000;

/** The worker process npm start runs (scripts/worker.ts, a child of the launcher). */
function workerPidOf(hangar: Launched): number {
  const rows = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(hangar.process.pid)], {
    encoding: "utf8",
  });
  const row = rows.split("\n").find((r) => r.includes("scripts/worker.ts"));
  if (!row) throw new Error(`no worker under npm start:\n${rows}`);
  return Number(row.trim().split(/\s+/)[0]);
}

const variants = [
  { name: "the embedded default", external: false },
  { name: "an external PostgreSQL", external: true },
];

describe.each(variants)("a worker killed mid-step, on $name", ({ external }) => {
  let hangar: Launched;
  let kube: FakeKubeApi;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let dataDir: string;
  const extra: ChildProcess[] = [];
  const call = (p: string, options: Parameters<typeof api>[1] = {}) =>
    api(p, { key: LAUNCHER_KEY, baseUrl: hangar.url, ...options });

  /** A deployment of a prebuilt image: its revision goes straight to its rollout. */
  const create = async (name: string) => {
    const res = await call("/v2/deployments", {
      method: "POST",
      body: {
        name,
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: `registry.example/${name}:1` },
      },
    });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.id as string, revisionId: res.body.latest_revision_id as string };
  };
  const statusOf = async (d: { id: string; revisionId: string }) => {
    const res = await call(`/v2/deployments/${d.id}/revisions/${d.revisionId}`);
    expect(res.status, res.text).toBe(200);
    return res.body.status as string;
  };
  const logOf = async (d: { id: string; revisionId: string }) => {
    const res = await call(`/v2/deployments/${d.id}/revisions/${d.revisionId}/logs?limit=1000`);
    expect(res.status, res.text).toBe(200);
    return (res.body.resources as { line: string }[]).map((l) => l.line);
  };
  /** The rollout waits (Deployments answer "not yet available") until `release`. */
  const holdRollouts = () => kube.setRollout("ready", { readyAfterReads: 1_000_000 });
  const releaseRollouts = () => kube.setRollout("ready");
  const rolloutRead = (name: string) =>
    kube.requests.some(
      (r) => r.method === "GET" && r.path.includes("/deployments/") && r.path.includes(name),
    );

  beforeAll(async () => {
    kube = await startFakeKubeApi();
    database = external ? await createTestDatabase("hangar_liveness") : undefined;
    dataDir = await newDataDir();
    hangar = await launchHangar(dataDir, {
      databaseUrl: database?.url,
      env: { HANGAR_KUBECONFIG: kube.kubeconfig() },
    });
  });
  afterAll(async () => {
    for (const child of extra) child.kill("SIGTERM");
    await hangar?.signal("SIGTERM");
    await kube?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("does not take over a live worker's long step, whatever its length", async () => {
    holdRollouts();
    const held = await create("live-long");
    await expect.poll(() => rolloutRead("live-long"), { timeout: 30_000 }).toBe(true);
    // A second worker looking on, on the same database, its lifeline running all along.
    const second = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: {
        ...process.env,
        HANGAR_DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? "",
        HANGAR_KUBECONFIG: kube.kubeconfig(),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    extra.push(second);
    let output = "";
    second.stdout!.on("data", (d) => (output += d));
    second.stderr!.on("data", (d) => (output += d));
    await expect.poll(() => output.includes('"worker started"'), { timeout: 30_000 }).toBe(true);
    // Both workers are alive, and /info says so.
    await expect.poll(async () => (await call("/info")).body.workers).toBe(2);
    await new Promise((r) => setTimeout(r, LONG_STEP_MS));
    expect(await statusOf(held)).toBe("DEPLOYING");
    releaseRollouts();
    await expect.poll(() => statusOf(held), { timeout: 30_000 }).toBe("DEPLOYED");
    const lines = await logOf(held);
    expect(lines.some((l) => l.startsWith(RESUMED) || l.startsWith("Resuming"))).toBe(false);
    expect(output).not.toContain("job handed back");
    const exited = new Promise((r) => second.once("exit", r));
    second.kill("SIGTERM");
    await exited;
    expect((await call("/info")).body.workers).toBe(1);
  }, 120_000);

  it("resumes a killed worker's step long before the job expiry, and its log says so", async () => {
    holdRollouts();
    const held = await create("killed-mid-step");
    await expect.poll(() => rolloutRead("killed-mid-step"), { timeout: 30_000 }).toBe(true);
    expect(await statusOf(held)).toBe("DEPLOYING");
    const pid = workerPidOf(hangar);
    process.kill(pid, "SIGKILL");
    const killedAt = Date.now();
    releaseRollouts();
    await expect
      .poll(() => statusOf(held), { timeout: RECOVERY_MS, interval: 100 })
      .toBe("DEPLOYED")
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${hangar.output().slice(-6000)}`);
      });
    console.log(`resumed and DEPLOYED ${Date.now() - killedAt} ms after the worker's SIGKILL`);
    const lines = await logOf(held);
    expect(lines.filter((l) => l.startsWith(RESUMED))).toHaveLength(1);
    expect(lines).toContain("Resuming DEPLOYING (attempt 2)");
    expect(hangar.output()).toContain("Worker exited");
  }, 120_000);
});
