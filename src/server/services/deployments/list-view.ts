import { harmless } from "@/lib/log-text";
import { plainReason } from "@/lib/runtime-words";
import { defaultSortDir } from "@/schemas/deployment-sort";
import type { RevisionSummary } from "@/schemas/deployment-status";
import type { DeploymentListView, DeploymentListViewQuery } from "@/schemas/deployment-list-view";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { readRuntimeStates } from "../runtime/state";
import { countDeployments, listDeployments, type ListOptions } from "./list";

/** The latest and active revisions of a set of deployments, by id, in one query. */
export async function revisionSummaries(
  db: DbClient,
  ids: (string | null)[],
): Promise<Map<string, RevisionSummary>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (!wanted.length) return new Map();
  const rows = await db.revision.findMany({
    where: { id: { in: wanted } },
    select: { id: true, number: true, status: true, statusMessage: true },
  });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        number: r.number,
        status: r.status,
        status_message: r.statusMessage === null ? null : harmless(r.statusMessage),
      },
    ]),
  );
}

/** The dashboard's list: a page sorted and filtered as asked, each row with its revisions, and the total. */
export async function listDeploymentsView(
  db: DbClient,
  actor: Actor,
  { sort, dir, failed, ...query }: DeploymentListViewQuery,
): Promise<DeploymentListView> {
  const options: ListOptions = {
    sort: sort ? { by: sort, dir: dir ?? defaultSortDir(sort) } : undefined,
    failed: failed === true,
  };
  const [page, total] = await Promise.all([
    listDeployments(db, actor, query, options),
    countDeployments(db, actor, query, options),
  ]);
  // Only an UNKNOWN deployment with a revision running may be unhealthy: its badge needs the
  // cluster's word, read for the whole page at once.
  const [revisions, health] = await Promise.all([
    revisionSummaries(
      db,
      page.resources.flatMap((d) => [d.latest_revision_id, d.active_revision_id]),
    ),
    readRuntimeStates(
      db,
      page.resources
        .filter((d) => d.status === "UNKNOWN")
        .map((d) => ({
          id: d.id,
          activeRevisionId: d.active_revision_id,
          runtime: d.runtime,
          listenerId: d.source_config.listener_id ?? null,
        })),
    ),
  ]);
  return {
    resources: page.resources.map((d) => {
      const state = health.get(d.id);
      return {
        ...d,
        latest_revision: (d.latest_revision_id && revisions.get(d.latest_revision_id)) || null,
        active_revision: (d.active_revision_id && revisions.get(d.active_revision_id)) || null,
        health: state?.running
          ? {
              healthy: state.healthy,
              reason: state.reason,
              restarts: state.restarts,
              last_termination: state.last_termination,
              words: plainReason(state),
            }
          : null,
      };
    }),
    offset: page.offset,
    total,
  };
}
