import { afterAll, beforeAll, expect, inject } from "vitest";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { startListenerProcess, type RunningListener } from "../../testing/listener";
import { startServer, type RunningServer } from "../../testing/server";
import { waitFor } from "./engine";
import { createTenant, type Tenant } from "./fixtures";
import { api } from "./http";

// Listener tests share one shape: a self-hosted server of their own (on the run's database; the
// run's worker hands revisions over), the fake Kubernetes API server, and real listener
// processes (scripts/listener.ts) started against both.

const LISTENER_TIMING = {
  HANGAR_LISTENER_LEASE_SECONDS: "2",
  HANGAR_LISTENER_POLL_SECONDS: "1",
  HANGAR_LISTENER_OFFLINE_SECONDS: "3",
};

/** The server Deployment of the deployment named `remote-agent` in namespace `agents`. */
export const SERVER_PATH = "/apis/apps/v1/namespaces/agents/deployments/remote-agent";

/** Registers the suite's beforeAll/afterAll; the fields are set once beforeAll ran. */
export function listenerHarness() {
  const h = {
    tenant: undefined as unknown as Tenant,
    stranger: undefined as unknown as Tenant,
    kube: undefined as unknown as FakeKubeApi,
    server: undefined as unknown as RunningServer,
    processes: [] as RunningListener[],
    call: (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
      api(path, { key, baseUrl: h.server.url, ...init }),
    bearer: (token: string, path: string, body: unknown) =>
      api(path, {
        baseUrl: h.server.url,
        method: "POST",
        body,
        headers: { authorization: `Bearer ${token}` },
      }),
    made: 0,
    async createListener(namespaces = ["agents"]) {
      const res = await h.call(h.tenant.keys.admin, "/v2/listeners", {
        method: "POST",
        body: {
          compute_type: "k8s",
          compute_id: `cluster-${h.made++}`,
          compute_config: { k8s_namespaces: namespaces },
        },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string; token: string; compute_id: string };
    },
    async runListener(token: string) {
      const running = await startListenerProcess({
        HANGAR_URL: h.server.url,
        HANGAR_LISTENER_TOKEN: token,
        KUBECONFIG: h.kube.kubeconfig(),
        HANGAR_ROLLOUT_POLL_SECONDS: "0.2",
        HANGAR_ROLLOUT_TIMEOUT_SECONDS: "60",
      });
      h.processes.push(running);
      return running;
    },
    async createDeployment(name: string, listenerId: string, image: string) {
      const res = await h.call(h.tenant.keys.editor, "/v2/deployments", {
        method: "POST",
        body: {
          name,
          source: "external_container",
          source_config: { listener_id: listenerId, listener_config: { k8s_namespace: "agents" } },
          source_revision_config: { image_uri: image },
        },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string; latest_revision_id: string };
    },
    /** Plays a listener by hand: takes the deployment's revision and reports it DEPLOYED. */
    async deployByHand(token: string, deploymentId: string) {
      const work = await waitFor(
        () => h.bearer(token, "/v2/listener/work", { replica_id: "hand", wait_seconds: 1 }),
        (r) => r.body?.work?.deployment_id === deploymentId,
        { timeoutMs: 60_000, what: "work for the hand-played listener" },
      );
      const done = await h.bearer(
        token,
        `/v2/listener/revisions/${work.body.work.revision_id}/reports`,
        { replica_id: "hand", report_id: "deployed", status: "DEPLOYED" },
      );
      expect(done.status, done.text).toBe(200);
    },
  };
  beforeAll(async () => {
    [h.tenant, h.stranger] = [await createTenant(), await createTenant()];
    h.kube = await startFakeKubeApi();
    h.server = await startServer({
      ...inject("testEnv"),
      ...LISTENER_TIMING,
      HANGAR_MODE: "self_hosted",
    });
  });
  afterAll(async () => {
    await Promise.all(h.processes.map((l) => l.kill()));
    await h.server?.stop();
    await h.kube?.stop();
  });
  return h;
}
