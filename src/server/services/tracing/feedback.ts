import { randomUUID } from "node:crypto";
import type { Feedback, FeedbackCreate } from "@/schemas/tracing";
import type { CreateRunFeedbackInput } from "@/schemas/tracing-dashboard";
import type { Prisma, TracingFeedback } from "@/generated/prisma/client";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { conflict, invalidField, notFound } from "@/server/errors";
import { isUuid } from "./ids";
import { requireOwnProjects } from "./projects";
import { runStore } from "./run-store";

// Feedback on runs (or on a whole project), kept per workspace.

function toFeedback(row: TracingFeedback): Feedback {
  return {
    id: row.id,
    run_id: row.runId,
    trace_id: row.traceId,
    session_id: row.projectId,
    key: row.key,
    score: row.score,
    value: row.value ?? null,
    comment: row.comment,
    correction: row.correction ?? null,
    feedback_source: (row.feedbackSource as Record<string, unknown> | null) ?? null,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt.toISOString(),
  };
}

const json = (value: unknown) =>
  value === undefined || value === null ? undefined : (value as Prisma.InputJsonValue);

/**
 * Records feedback; the same id again answers the stored one (a retried batch creates nothing
 * new). A run or project of another workspace is a 404; a run not stored yet is accepted (its
 * batch may still be on its way).
 */
export async function createFeedback(
  db: DbClient,
  actor: Actor,
  input: FeedbackCreate,
): Promise<Feedback> {
  requireRole(actor, "editor");
  if (input.run_id && (await runStore.runIdElsewhere(db, actor.workspaceId, input.run_id)))
    throw notFound(`Run ${input.run_id} not found`);
  if (input.session_id) await requireOwnProjects(db, actor, [input.session_id]);
  const id = input.id ?? randomUUID();
  const score = typeof input.score === "boolean" ? (input.score ? 1 : 0) : (input.score ?? null);
  const inserted = await db.tracingFeedback.createMany({
    data: [
      {
        id,
        workspaceId: actor.workspaceId,
        runId: input.run_id ?? null,
        traceId: input.trace_id ?? null,
        projectId: input.session_id ?? null,
        key: input.key,
        score,
        value: json(input.value),
        comment: input.comment ?? null,
        correction: json(input.correction),
        feedbackSource: json(input.feedback_source),
      },
    ],
    skipDuplicates: true,
  });
  const row = await db.tracingFeedback.findUnique({ where: { id } });
  if (!row || (inserted.count === 0 && row.workspaceId !== actor.workspaceId))
    throw conflict(`Feedback id ${id} is already in use`);
  return toFeedback(row);
}

/**
 * Feedback a dashboard user gives on a run: only on a run stored in the caller's workspace
 * (else 404), recorded by createFeedback as the SDK's is, with the run's trace and project and
 * the SDK's source shape (`type: "app"`, as the reference platform's own UI records it).
 */
export async function createRunFeedback(
  db: DbClient,
  actor: Actor,
  input: CreateRunFeedbackInput,
): Promise<Feedback> {
  requireRole(actor, "editor");
  const [run] = await runStore.findRuns(db, {
    workspaceId: actor.workspaceId,
    ids: [input.runId],
    order: "desc",
    limit: 1,
  });
  if (!run) throw notFound(`Run ${input.runId} not found`);
  return createFeedback(db, actor, {
    run_id: run.id,
    trace_id: run.trace_id ?? run.id,
    session_id: run.project_id,
    key: input.key,
    score: input.score ?? null,
    comment: input.comment || null,
    feedback_source: { type: "app", metadata: { user_id: actor.userId } },
  });
}

export async function readFeedback(db: DbClient, actor: Actor, id: string): Promise<Feedback> {
  const row = isUuid(id)
    ? await db.tracingFeedback.findFirst({ where: { id, workspaceId: actor.workspaceId } })
    : null;
  if (!row) throw notFound(`Feedback ${id} not found`);
  return toFeedback(row);
}

export async function listFeedback(
  db: DbClient,
  actor: Actor,
  query: { run?: string | string[]; key?: string | string[]; limit: number; offset: number },
): Promise<Feedback[]> {
  const runs = query.run === undefined ? undefined : [query.run].flat();
  const keys = query.key === undefined ? undefined : [query.key].flat();
  const bad = runs?.find((id) => !isUuid(id));
  if (bad) throw invalidField(["query", "run"], `${bad} is not a run id`, "uuid_parsing");
  const rows = await db.tracingFeedback.findMany({
    where: {
      workspaceId: actor.workspaceId,
      ...(runs ? { runId: { in: runs } } : {}),
      ...(keys ? { key: { in: keys } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    skip: query.offset,
  });
  return rows.map(toFeedback);
}
