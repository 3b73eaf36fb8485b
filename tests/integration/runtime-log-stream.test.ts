import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { startServer, type RunningServer } from "../../testing/server";
import { openEventStream } from "../helpers/event-stream";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { insertDeployment } from "../helpers/revision-fixtures";
import { signInAs } from "../helpers/sign-in";

// Issue 34, finding 3: the Logs tab follows over server-sent events fed by the cluster's own log
// follow (GET /v2/deployments/{id}/logs/stream), over HTTP against the fake Kubernetes API: lines
// printed after connecting arrive, the cluster's follow ends when the client goes away, and
// another workspace gets 404 like every other route.

const NAMESPACE = "stream-agents";
let kube: FakeKubeApi;
let server: RunningServer;
let tenant: Tenant;
let other: Tenant;
let cookie: string;

beforeAll(async () => {
  kube = await startFakeKubeApi();
  server = await startServer({ ...inject("testEnv"), HANGAR_KUBECONFIG: kube.kubeconfig() });
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  cookie = await signInAs(tenant.userIds.viewer);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await kube?.stop();
});

/** A deployment whose active revision runs `name` on the fake cluster (what a deploy leaves). */
async function running(name: string, replicas = 2) {
  const id = await insertDeployment(tenant, "internal_container");
  const labels = {
    "app.kubernetes.io/component": "server",
    "app.kubernetes.io/managed-by": "hangar",
    "hangar.dev/deployment-id": id,
    "hangar.dev/revision": "1",
  };
  const object = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: NAMESPACE, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: "server", image: "registry.example.com/agent:1" }] },
      },
    },
  };
  const res = await fetch(
    `${kube.url}/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${name}?fieldManager=hangar`,
    {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${kube.token}`,
        "content-type": "application/apply-patch+yaml",
      },
      body: JSON.stringify(object),
    },
  );
  expect(res.status).toBe(201);
  const db = testDb();
  const revision = await db.revision.findFirstOrThrow({ where: { deploymentId: id } });
  await db.revision.update({
    where: { id: revision.id },
    data: { runtime: "kubernetes", manifests: [object], status: "DEPLOYED" },
  });
  await db.deployment.update({
    where: { id },
    data: { runtime: "kubernetes", activeRevisionId: revision.id },
  });
  return id;
}

const streamUrl = (id: string, query = "") =>
  `${server.url}/v2/deployments/${id}/logs/stream${query}`;

/** Resolves once `check` holds, polling the fake cluster (its state, not a fixed wait). */
async function until(check: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("GET /v2/deployments/{id}/logs/stream", () => {
  it("sends lines printed after connecting, from every replica, and ends the follow with the client", async () => {
    const id = await running("stream-a");
    kube.printLog("stream-a", ["INFO printed before connecting"]);
    const stream = await openEventStream(streamUrl(id), { cookie });
    await until(() => kube.podLogFollowed("stream-a"));
    kube.printLog("stream-a", ["INFO hello from the stream", "ERROR \u001b[31mboom\u001b[0m"]);
    const first = await stream.next("log");
    expect(first.data).toMatchObject({
      id: expect.any(String),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: "INFO",
      message: "INFO hello from the stream",
      pod: expect.stringMatching(/^stream-a-/),
      container: "server",
      previous: false,
    });
    await until(() => stream.received().filter((e) => e.event === "log").length >= 4);
    const messages = stream
      .received()
      .filter((e) => e.event === "log")
      .map((e) => (e.data as { message: string }).message);
    expect(messages).not.toContain("INFO printed before connecting");
    // Two replicas, each line once; the escape sequences made harmless.
    expect(messages.filter((m) => m === "INFO hello from the stream")).toHaveLength(2);
    expect(messages.filter((m) => m.includes("\u241b[31mboom"))).toHaveLength(2);
    stream.close();
    await until(() => !kube.podLogFollowed("stream-a"));
  });

  it("ends the cluster's follow of a quiet container as soon as the client goes away", async () => {
    // Nothing printed: the cluster has sent no headers yet, the follow must end all the same.
    const id = await running("stream-quiet", 1);
    for (let i = 0; i < 3; i++) {
      const stream = await openEventStream(streamUrl(id), { cookie });
      await until(() => kube.podLogFollowed("stream-quiet"));
      stream.close();
      await until(() => !kube.podLogFollowed("stream-quiet"), 5_000);
    }
  });

  it("filters by level and search, and with `since` also sends what was printed since then", async () => {
    const id = await running("stream-b", 1);
    const since = new Date(Date.now() - 1000).toISOString();
    kube.printLog("stream-b", ["INFO older line", "ERROR older failure"]);
    const stream = await openEventStream(
      streamUrl(id, `?level=ERROR&since=${encodeURIComponent(since)}`),
      { cookie },
    );
    await until(() => kube.podLogFollowed("stream-b"));
    kube.printLog("stream-b", ["INFO not an error", "ERROR newer failure"]);
    await until(() => stream.received().filter((e) => e.event === "log").length >= 2);
    expect(
      stream
        .received()
        .filter((e) => e.event === "log")
        .map((e) => (e.data as { message: string }).message),
    ).toEqual(["ERROR older failure", "ERROR newer failure"]);
    stream.close();
  });

  it("follows a restarted container again, without sending a line twice", async () => {
    const id = await running("stream-c", 1);
    const stream = await openEventStream(streamUrl(id), { cookie });
    await until(() => kube.podLogFollowed("stream-c"));
    kube.printLog("stream-c", ["INFO first run"]);
    await stream.next("log");
    kube.oomKill("stream-c");
    await until(() => kube.podLogFollowed("stream-c"));
    kube.printLog("stream-c", ["INFO second run"]);
    await until(() => stream.received().some((e) => JSON.stringify(e.data).includes("second")));
    const messages = stream
      .received()
      .filter((e) => e.event === "log")
      .map((e) => (e.data as { message: string }).message);
    expect(messages).toEqual(["INFO first run", "INFO second run"]);
    stream.close();
  });

  it("is 401 without credentials, 404 from another workspace, 409 in dry run", async () => {
    const id = await running("stream-d", 1);
    expect((await fetch(streamUrl(id))).status).toBe(401);
    const foreign = await fetch(streamUrl(id), { headers: { "x-api-key": other.keys.viewer } });
    expect(foreign.status).toBe(404);
    const dry = await insertDeployment(tenant, "internal_container");
    const res = await fetch(streamUrl(dry), { headers: { "x-api-key": tenant.keys.viewer } });
    expect(res.status).toBe(409);
    expect(kube.podLogFollowed("stream-d")).toBe(false);
  });
});
