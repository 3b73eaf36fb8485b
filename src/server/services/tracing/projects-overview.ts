import type { ProjectOverview } from "@/schemas/tracing-dashboard";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { runStore } from "./run-store";

// The workspace's tracing projects as the dashboard lists them, and a deployment's project.

/** The list shows this many projects, newest first. */
export const PROJECTS_SHOWN = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function listProjectOverview(
  db: DbClient,
  actor: Actor,
  now = new Date(),
): Promise<{ projects: ProjectOverview[]; truncated: boolean }> {
  const rows = await db.tracingProject.findMany({
    where: { workspaceId: actor.workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: PROJECTS_SHOWN + 1,
    select: { id: true, name: true, deployment: { select: { id: true, name: true } } },
  });
  const shown = rows.slice(0, PROJECTS_SHOWN);
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const activity = new Map(
    (
      await runStore.projectActivity(
        db,
        actor.workspaceId,
        shown.map((p) => p.id),
        since,
      )
    ).map((a) => [a.project_id, a]),
  );
  return {
    projects: shown.map((p) => {
      const a = activity.get(p.id);
      return {
        id: p.id,
        name: p.name,
        deployment: p.deployment,
        traces_24h: a?.traces ?? 0,
        errors_24h: a?.errors ?? 0,
        last_run_time: a?.last_run_time ?? null,
      };
    }),
    truncated: rows.length > PROJECTS_SHOWN,
  };
}

/** The project a deployment of the workspace traces into (created with it). */
export async function deploymentProject(db: DbClient, actor: Actor, deploymentId: string) {
  const row = await db.tracingProject.findFirst({
    where: { deploymentId, workspaceId: actor.workspaceId },
    select: { id: true, name: true, deploymentId: true },
  });
  if (!row) throw notFound(`Deployment ${deploymentId} has no tracing project`);
  return { id: row.id, name: row.name, deployment_id: row.deploymentId };
}
