import { randomUUID } from "node:crypto";
import type { Project } from "@/schemas/tracing";
import { requireRole, type Actor } from "@/server/auth/actor";
import { readRows, type DbClient } from "@/server/db";
import { conflict, isUniqueViolation, notFound } from "@/server/errors";
import type { TracingProject } from "@/generated/prisma/client";
import { Prisma } from "@/generated/prisma/client";
import { isUuid } from "./ids";

// Tracing projects (the SDK's "sessions"), always inside the caller's workspace.

export function toProject(row: TracingProject): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    extra: (row.extra as Record<string, unknown> | null) ?? null,
    tenant_id: row.workspaceId,
    deployment_id: row.deploymentId,
    start_time: row.createdAt.toISOString(),
    reference_dataset_id: null,
  };
}

/**
 * The project a new deployment traces into, in the deployment's own transaction: created with
 * its name, or (a project of that name already there: one the SDK made, or a deleted
 * deployment's, detached) attached to it.
 */
export async function attachDeploymentProject(
  tx: DbClient,
  deployment: { id: string; workspaceId: string; name: string },
): Promise<void> {
  await tx.tracingProject.upsert({
    where: { workspaceId_name: { workspaceId: deployment.workspaceId, name: deployment.name } },
    create: {
      id: randomUUID(),
      workspaceId: deployment.workspaceId,
      name: deployment.name,
      deploymentId: deployment.id,
    },
    update: { deploymentId: deployment.id },
  });
}

export async function readProject(db: DbClient, actor: Actor, id: string): Promise<Project> {
  const row = isUuid(id)
    ? await db.tracingProject.findFirst({ where: { id, workspaceId: actor.workspaceId } })
    : null;
  if (!row) throw notFound(`Project ${id} not found`);
  return toProject(row);
}

export async function listProjects(
  db: DbClient,
  actor: Actor,
  query: { name?: string; limit: number; offset: number },
): Promise<Project[]> {
  const rows = await db.tracingProject.findMany({
    where: {
      workspaceId: actor.workspaceId,
      ...(query.name !== undefined ? { name: query.name } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    skip: query.offset,
  });
  return rows.map(toProject);
}

/** POST /sessions: 409 on a taken name unless `upsert`, which answers the existing project. */
export async function createProject(
  db: DbClient,
  actor: Actor,
  input: { name: string; description?: string | null; extra?: Record<string, unknown> | null },
  upsert: boolean,
): Promise<{ project: Project; created: boolean }> {
  requireRole(actor, "editor");
  const existing = await db.tracingProject.findUnique({
    where: { workspaceId_name: { workspaceId: actor.workspaceId, name: input.name } },
  });
  if (existing) {
    if (!upsert) throw conflict(`Project ${input.name} already exists.`);
    return { project: toProject(existing), created: false };
  }
  try {
    const row = await db.tracingProject.create({
      data: {
        id: randomUUID(),
        workspaceId: actor.workspaceId,
        name: input.name,
        description: input.description ?? null,
        extra: (input.extra ?? undefined) as Prisma.InputJsonValue | undefined,
      },
    });
    return { project: toProject(row), created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (!upsert) throw conflict(`Project ${input.name} already exists.`);
    const row = await db.tracingProject.findUniqueOrThrow({
      where: { workspaceId_name: { workspaceId: actor.workspaceId, name: input.name } },
    });
    return { project: toProject(row), created: false };
  }
}

/**
 * The project ids runs name by `session_name`, made in the caller's workspace when missing
 * (the SDK traces into a project by name without creating it first).
 */
export async function projectIdsByName(
  db: DbClient,
  workspaceId: string,
  names: string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  const find = async () =>
    new Map(
      (
        await db.tracingProject.findMany({
          where: { workspaceId, name: { in: unique } },
          select: { id: true, name: true },
        })
      ).map((r) => [r.name, r.id]),
    );
  // Read first: nearly every batch names projects that exist, and a read writes nothing.
  const found = await find();
  const missing = unique.filter((name) => !found.has(name));
  if (missing.length === 0) return found;
  await db.tracingProject.createMany({
    data: missing.map((name) => ({ id: randomUUID(), workspaceId, name })),
    skipDuplicates: true,
  });
  return find();
}

/** Of these project ids, the ones in the workspace. */
export async function projectIdsInWorkspace(
  db: DbClient,
  workspaceId: string,
  ids: string[],
): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  // On the pool directly: every run query asks this before its page (readRows).
  const rows = await readRows<{ id: string }>(
    db,
    Prisma.sql`SELECT id::text AS id FROM tracing_projects
      WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${unique}::uuid[])`,
  );
  return new Set(rows.map((r) => r.id));
}

/** 404 naming the first of these projects that is not the workspace's. */
export async function requireOwnProjects(
  db: DbClient,
  actor: Actor,
  ids: string[] | null | undefined,
) {
  if (!ids?.length) return;
  const mine = await projectIdsInWorkspace(db, actor.workspaceId, ids);
  const missing = ids.find((id) => !mine.has(id));
  if (missing) throw notFound(`Project ${missing} not found`);
}
