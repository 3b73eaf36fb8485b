import type { KubeConfig } from "@kubernetes/client-node";
import { startHealthWatch, type HealthWatch } from "../health/watch";
import type { ProtocolClient } from "./client";

// A listener's live health watch of its own cluster (contract 14.3): the same watch as Hangar's
// worker (jobs/health), whose targets and judgements go through the protocol. Nothing leaves the
// cluster but the judgement: counts, reasons, the newest Warning events.

export function startListenerHealth(
  kubeconfig: KubeConfig,
  client: ProtocolClient,
  replicaId: string,
  options = { settleMs: 250, resyncMs: 30_000 },
): HealthWatch {
  return startHealthWatch(
    kubeconfig,
    {
      async targets(ids) {
        const answer = await client.runtimeTargets(replicaId, ids);
        return answer.deployments.map((d) => ({
          id: d.deployment_id,
          revision: d.revision_number,
        }));
      },
      async record(id, observation) {
        await client.reportRuntime(id, { replica_id: replicaId, observation });
      },
    },
    options,
  );
}
