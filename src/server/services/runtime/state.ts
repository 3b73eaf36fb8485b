import type { Prisma } from "@/generated/prisma/client";
import { summarize } from "@/lib/runtime-summary";
import type { RuntimeObservation, RuntimeState } from "@/schemas/runtime";
import type { Actor } from "@/server/auth/actor";
import type { Db, DbClient } from "@/server/db";
import { recordAudit } from "../audit/record";
import { findDeployment, lockedTransaction } from "../deployments/find";

// A deployment's live health (contract 5.7): what Hangar's watch of its cluster, or the
// deployment's listener, last observed of the active revision. The deployment's `status`
// follows it: READY only while the active revision is ready, UNKNOWN (with the reason here)
// otherwise. Each change is recorded in the deployment's activity (audit `deployment.health`).

export type RuntimeSource = "kubernetes" | "listener";

const nothing: RuntimeObservation = {
  healthy: false,
  reason: null,
  ready_replicas: 0,
  desired_replicas: 0,
  restarts: 0,
  last_termination: null,
  components: [],
  events: [],
};

function notRunning(source: RuntimeState["source"], reason: string, summary: string): RuntimeState {
  return { ...nothing, running: false, source, healthy: null, reason, summary, observed_at: null };
}

export const DRY_RUN_REASON =
  "Dry run: no cluster is configured, so nothing runs (the revision's objects were only recorded).";

/** What a runtime-state row holds (deployment_runtime_states). */
interface RuntimeRow {
  source: string;
  healthy: boolean;
  reason: string | null;
  observation: unknown;
  changedAt: Date;
}

/** What runs of a deployment: nothing (none, dry run), or its row (none yet: not observed). */
interface RunningDeployment {
  activeRevisionId: string | null;
  runtime: string | null;
  listenerId: string | null;
}

const runs = (d: RunningDeployment) => !!d.activeRevisionId && d.runtime !== "dry_run";

function stateOf(deployment: RunningDeployment, row: RuntimeRow | null): RuntimeState {
  if (!deployment.activeRevisionId)
    return notRunning("none", "No revision has been deployed yet.", "Not running");
  if (deployment.runtime === "dry_run")
    return notRunning("dry_run", DRY_RUN_REASON, "Not running (dry run)");
  const source: RuntimeSource = deployment.listenerId ? "listener" : "kubernetes";
  if (!row)
    return {
      ...nothing,
      running: true,
      source,
      healthy: null,
      reason: "Not observed yet.",
      summary: "Not observed yet",
      observed_at: null,
    };
  const observation = { ...nothing, ...(row.observation as Partial<RuntimeObservation>) };
  return {
    ...observation,
    healthy: row.healthy,
    reason: row.reason,
    running: true,
    source: row.source as RuntimeSource,
    summary: summarize(observation),
    observed_at: row.changedAt.toISOString(),
  };
}

/** The deployment's runtime state (404 for another workspace's). */
export async function readRuntimeState(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
): Promise<RuntimeState> {
  const deployment = await findDeployment(db, actor, deploymentId);
  const row = runs(deployment)
    ? await db.deploymentRuntimeState.findUnique({ where: { deploymentId } })
    : null;
  return stateOf(deployment, row);
}

/**
 * The runtime states of deployments the caller has already read (so already of its workspace),
 * by id, in one query: the dashboard's list asks for a page of them at once.
 */
export async function readRuntimeStates(
  db: DbClient,
  deployments: (RunningDeployment & { id: string })[],
): Promise<Map<string, RuntimeState>> {
  const ids = deployments.filter(runs).map((d) => d.id);
  const rows = ids.length
    ? await db.deploymentRuntimeState.findMany({ where: { deploymentId: { in: ids } } })
    : [];
  const byId = new Map(rows.map((r) => [r.deploymentId, r]));
  return new Map(deployments.map((d) => [d.id, stateOf(d, byId.get(d.id) ?? null)]));
}

/**
 * Records an observation of a deployment's active revision. Writes (and notifies, and audits a
 * change of health) only when it differs from the last one; moves the deployment between READY
 * and UNKNOWN as health says. Answers whether anything changed.
 */
export async function recordRuntimeObservation(
  db: Db,
  deploymentId: string,
  source: RuntimeSource,
  observation: RuntimeObservation,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM deployments WHERE id = ${deploymentId}::uuid FOR UPDATE`;
    if (locked.length === 0) return false;
    const before = await tx.deploymentRuntimeState.findUnique({ where: { deploymentId } });
    const json = observation as unknown as Prisma.InputJsonValue;
    if (
      before &&
      before.source === source &&
      JSON.stringify(before.observation) === JSON.stringify(observation)
    )
      return false;
    await tx.deploymentRuntimeState.upsert({
      where: { deploymentId },
      create: {
        deploymentId,
        source,
        healthy: observation.healthy,
        reason: observation.reason,
        observation: json,
      },
      update: {
        source,
        healthy: observation.healthy,
        reason: observation.reason,
        observation: json,
        changedAt: new Date(),
      },
    });
    const deployment = await tx.deployment.findUniqueOrThrow({
      where: { id: deploymentId },
      select: {
        status: true,
        workspaceId: true,
        activeRevisionId: true,
        workspace: { select: { organizationId: true } },
      },
    });
    const next = observation.healthy ? "READY" : "UNKNOWN";
    if (
      deployment.activeRevisionId &&
      (deployment.status === "READY" || deployment.status === "UNKNOWN") &&
      deployment.status !== next
    )
      await tx.deployment.update({ where: { id: deploymentId }, data: { status: next } });
    if (!before || before.healthy !== observation.healthy || before.reason !== observation.reason)
      await recordAudit(
        tx,
        {
          organizationId: deployment.workspace.organizationId,
          workspaceId: deployment.workspaceId,
        },
        {
          action: "deployment.health",
          targetType: "deployment",
          targetId: deploymentId,
          data: {
            healthy: observation.healthy,
            reason: observation.reason,
            ready: observation.ready_replicas,
            desired: observation.desired_replicas,
            source,
          },
        },
      );
    return true;
  }, lockedTransaction);
}
