import type { Listener } from "@/generated/prisma/client";
import type { ListenerRuntimeReport } from "@/schemas/runtime";
import type { Db } from "@/server/db";
import { notFound } from "@/server/errors";
import { recordRuntimeObservation } from "../runtime/state";
import { watchedDeployments, type WatchedDeployment } from "../runtime/watched";

// The listener's side of live health (contract 14.3): which of its deployments run (and which
// revision), and its judgement of one of them, recorded as Hangar's own watch records its own
// (status READY/UNKNOWN, activity, the dashboard's change event).

export async function listenerRuntimeTargets(
  db: Db,
  listener: Listener,
  ids: string[] | null | undefined,
): Promise<{ deployments: { deployment_id: string; revision_number: number }[] }> {
  const targets: WatchedDeployment[] = await watchedDeployments(db, ids ?? undefined, listener.id);
  return {
    deployments: targets.map((t) => ({ deployment_id: t.id, revision_number: t.revision })),
  };
}

export async function reportListenerRuntime(
  db: Db,
  listener: Listener,
  deploymentId: string,
  input: ListenerRuntimeReport,
): Promise<{ deployment_id: string; status: string; changed: boolean }> {
  const owned = await db.deployment.findFirst({
    where: { id: deploymentId, listenerId: listener.id },
    select: { id: true },
  });
  if (!owned) throw notFound(`Deployment ID ${deploymentId} not found.`);
  const changed = await recordRuntimeObservation(db, deploymentId, "listener", input.observation);
  const { status } = await db.deployment.findUniqueOrThrow({
    where: { id: deploymentId },
    select: { status: true },
  });
  return { deployment_id: deploymentId, status, changed };
}
