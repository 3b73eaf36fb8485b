import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { conflict, notFound } from "@/server/errors";
import { recordAudit } from "../audit/record";
import { attachmentObjects, removeStoredObjects } from "./attachments";
import { isUuid } from "./ids";
import { runStore } from "./run-store";
import { fieldObjects } from "./stored-fields";

// DELETE /api/v1/sessions/{id}: a project, its runs and its feedback, at the user's explicit
// request. Runs live in day partitions that retention drops whole; here they go row by row, in
// bounded batches each committed alone, so a project of millions of runs never holds one giant
// transaction (nor locks a partition) and a delete cut short resumes when sent again.

/** Runs deleted per statement. */
export const PROJECT_DELETE_BATCH = 5000;

const ownedByDeployment = (project: string, deployment: { id: string; name: string }) =>
  conflict(
    `Project ${project} is the tracing project of deployment ${deployment.name} (${deployment.id}): delete the deployment first (its project then stays, detached, and can be deleted)`,
  );

/** Deletes the project's runs (their feedback, their attachments) batch by batch; how many. */
async function deleteRunsOf(db: Db, workspaceId: string, projectId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const runs = await runStore.deleteProjectRuns(db, workspaceId, projectId, PROJECT_DELETE_BATCH);
    if (runs.length > 0) {
      const ids = runs.map((r) => r.id);
      await db.tracingFeedback.deleteMany({ where: { workspaceId, runId: { in: ids } } });
      await removeStoredObjects(
        runs.flatMap((r) => [...attachmentObjects(r.attachments), ...fieldObjects(r)]),
      );
    }
    deleted += runs.length;
    if (runs.length < PROJECT_DELETE_BATCH) return deleted;
  }
}

/**
 * 404 for a project of another workspace; 409 while a deployment owns it (every deployment has
 * its project, contract 15.2). Runs first, then the project row with its feedback in one
 * transaction, then once more the runs a batch in flight may have written meanwhile.
 */
export async function deleteProject(db: Db, actor: Actor, id: string): Promise<void> {
  requireRole(actor, "editor");
  const { workspaceId } = actor;
  const project = isUuid(id)
    ? await db.tracingProject.findFirst({
        where: { id, workspaceId },
        include: { deployment: { select: { id: true, name: true } } },
      })
    : null;
  if (!project) throw notFound(`Project ${id} not found`);
  if (project.deployment) throw ownedByDeployment(project.name, project.deployment);

  const runs = await deleteRunsOf(db, workspaceId, project.id);
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ deployment_id: string | null }[]>`
      SELECT deployment_id::text AS deployment_id FROM "tracing_projects"
       WHERE id = ${project.id}::uuid FOR UPDATE`;
    if (!locked) return; // deleted meanwhile by another request
    if (locked.deployment_id) {
      // A deployment of the same name took the project over while its runs were deleted.
      const deployment = await tx.deployment.findUniqueOrThrow({
        where: { id: locked.deployment_id },
        select: { id: true, name: true },
      });
      throw ownedByDeployment(project.name, deployment);
    }
    await tx.tracingFeedback.deleteMany({ where: { workspaceId, projectId: project.id } });
    await tx.tracingProject.delete({ where: { id: project.id } });
    await recordAudit(tx, actor, {
      action: "tracing_project.delete",
      targetType: "tracing_project",
      targetId: project.id,
      data: { name: project.name, runs },
    });
  });
  await deleteRunsOf(db, workspaceId, project.id);
}
