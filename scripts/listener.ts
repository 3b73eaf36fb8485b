// `npm run listener`: one listener replica. It long-polls Hangar for the revisions of the
// deployments assigned to it, applies them to its cluster with the Kubernetes driver, waits for
// the rollout and reports back. Configuration (environment, or flags of the same name):
//   HANGAR_URL              where Hangar answers (e.g. https://hangar.example.com)
//   HANGAR_LISTENER_TOKEN   the token shown once when the listener was created
//   KUBECONFIG              a kubeconfig file; unset: the in-cluster service account
//   HANGAR_ROLLOUT_TIMEOUT_SECONDS (default 300), HANGAR_ROLLOUT_POLL_SECONDS (default 2),
//   HANGAR_LISTENER_REPLICA_ID (default: host name + random); README, "Self-hosted"
//   HANGAR_HEALTH_RESYNC_SECONDS (default 30): its live health watch judges everything again
// It also watches its cluster's pods and Deployments of Hangar and reports their health, and
// answers Hangar's runtime log requests with what its cluster has (only when asked).
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { KubeConfig } from "@kubernetes/client-node";
import { DEFAULT_ROLLOUT, kubernetesDeployer } from "../src/server/jobs/drivers/kubernetes";
import { protocolClient } from "../src/server/jobs/listener/client";
import { startListenerHealth } from "../src/server/jobs/listener/health";
import { serveLogRequests } from "../src/server/jobs/listener/logs";
import { runListener } from "../src/server/jobs/listener/run";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    token: { type: "string" },
    kubeconfig: { type: "string" },
  },
});
const url = values.url ?? process.env.HANGAR_URL;
const token = values.token ?? process.env.HANGAR_LISTENER_TOKEN;
const kubeconfigPath = values.kubeconfig ?? process.env.KUBECONFIG;
if (!url || !token) {
  console.error("Set HANGAR_URL and HANGAR_LISTENER_TOKEN (or --url and --token).");
  process.exit(2);
}

const kubeconfig = new KubeConfig();
if (kubeconfigPath) kubeconfig.loadFromFile(kubeconfigPath);
else kubeconfig.loadFromCluster();
const timeoutSeconds = Number(process.env.HANGAR_ROLLOUT_TIMEOUT_SECONDS ?? 0);
const pollSeconds = Number(process.env.HANGAR_ROLLOUT_POLL_SECONDS ?? 0);
const deployer = kubernetesDeployer(kubeconfig, {
  timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : DEFAULT_ROLLOUT.timeoutMs,
  pollMs: pollSeconds > 0 ? pollSeconds * 1000 : DEFAULT_ROLLOUT.pollMs,
});

const controller = new AbortController();
process.on("SIGINT", () => controller.abort());
process.on("SIGTERM", () => controller.abort());
const client = protocolClient(url, token);
const replicaId =
  process.env.HANGAR_LISTENER_REPLICA_ID ?? `${hostname()}-${randomBytes(3).toString("hex")}`;
const resyncSeconds = Number(process.env.HANGAR_HEALTH_RESYNC_SECONDS ?? 0);
const health = startListenerHealth(kubeconfig, client, replicaId, {
  settleMs: 250,
  resyncMs: resyncSeconds > 0 ? resyncSeconds * 1000 : 30_000,
});
const logs = serveLogRequests({
  kubeconfig,
  client,
  replicaId,
  waitSeconds: 25,
  signal: controller.signal,
});
await runListener({
  client,
  deployer,
  replicaId,
  waitSeconds: 25,
  signal: controller.signal,
  onDeployed: (id) => health.touch(id),
});
health.stop();
await logs;
process.exit(0);
