import { Prisma } from "@/generated/prisma/client";
import type { Page } from "@/schemas/common";
import { DEFAULT_SORT, type DeploymentSort } from "@/schemas/deployment-sort";
import { FAILED_REVISION_STATUSES } from "@/schemas/deployment-status";
import type { Deployment, ListDeploymentsQuery } from "@/schemas/deployments";
import { ACTIVE_STATUSES } from "@/schemas/revision-states";
import type { Actor } from "@/server/auth/actor";
import { readRows, type DbClient } from "@/server/db";
import { SEEK_FROM_OFFSET, isWholeListByCreation, seekPageIds, wholeListCount } from "./page-ids";

/** ILIKE's default escape is `\`: `%` and `_` in the text must match themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const uuidList = (ids: string[]) => Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));

const failedStatuses = Prisma.join(
  FAILED_REVISION_STATUSES.map((s) => Prisma.sql`${s}::"RevisionStatus"`),
);
const latestFailed = Prisma.sql`EXISTS (SELECT 1 FROM revisions r
  WHERE r.id = d.latest_revision_id AND r.status IN (${failedStatuses}))`;

const activeStatuses = Prisma.join(ACTIVE_STATUSES.map((s) => Prisma.sql`${s}::"RevisionStatus"`));

/** The dashboard's extras over the contract's list: sorting and the "failed" filter. */
export interface ListOptions {
  sort?: DeploymentSort;
  failed?: boolean;
}

/** The status column sorts by what the badge says: deleting, failed, deploying, live, waiting. */
const statusRank = Prisma.sql`CASE
  WHEN d.status = 'AWAITING_DELETE' THEN 0
  WHEN d.latest_revision_id IS NULL THEN 5
  WHEN ${latestFailed} THEN 1
  WHEN EXISTS (SELECT 1 FROM revisions r WHERE r.id = d.latest_revision_id
               AND r.status IN (${activeStatuses})) THEN 2
  WHEN d.active_revision_id IS NOT NULL THEN 3
  ELSE 4 END`;

const sortKeys: Record<DeploymentSort["by"], Prisma.Sql> = {
  name: Prisma.sql`d.name`,
  created: Prisma.sql`d.created_at`,
  updated: Prisma.sql`d.updated_at`,
  status: statusRank,
};

/** ORDER BY on `d` for a sort (whitelisted keys), ties broken by id in the same direction. */
function orderBy(sort: DeploymentSort = DEFAULT_SORT): Prisma.Sql {
  const dir = sort.dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  return Prisma.sql`${sortKeys[sort.by]} ${dir}, d.id ${dir}`;
}

/** The filters of contract 5.1 as SQL conditions on `d`, always inside the workspace. */
export function deploymentFilter(
  actor: Actor,
  query: ListDeploymentsQuery,
  options: ListOptions = {},
): Prisma.Sql {
  const where = [Prisma.sql`d.workspace_id = ${actor.workspaceId}::uuid`];
  if (query.name_contains)
    where.push(Prisma.sql`d.name ILIKE ${`%${likeLiteral(query.name_contains)}%`}`);
  // The dashboard's "failed" choice sits beside the statuses: either matches.
  const either: Prisma.Sql[] = [];
  if (query.status?.length) {
    const statuses = query.status.map((s) => Prisma.sql`${s}::"DeploymentStatus"`);
    either.push(Prisma.sql`d.status IN (${Prisma.join(statuses)})`);
  }
  if (options.failed) either.push(latestFailed);
  if (either.length) where.push(Prisma.sql`(${Prisma.join(either, " OR ")})`);
  if (query.remote_reconciled !== undefined)
    where.push(
      query.remote_reconciled
        ? Prisma.sql`d.listener_id IS NOT NULL`
        : Prisma.sql`d.listener_id IS NULL`,
    );
  for (const tagValueId of new Set(query.tag_value_ids ?? []))
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM deployment_tags t
      WHERE t.deployment_id = d.id AND t.tag_value_id = ${tagValueId}::uuid)`);
  if (query.image_version !== undefined)
    where.push(Prisma.sql`d.image_version = ${query.image_version}`);
  if (query.deployment_type)
    where.push(Prisma.sql`d.deployment_type = ${query.deployment_type}::"DeploymentType"`);
  if (query.deployment_ids?.length)
    where.push(Prisma.sql`d.id IN (${uuidList(query.deployment_ids)})`);
  if (query.previews === "exclude") where.push(Prisma.sql`d.preview IS NULL`);
  if (query.previews === "only") where.push(Prisma.sql`d.preview IS NOT NULL`);
  if (query.parent_id) where.push(Prisma.sql`d.parent_id = ${query.parent_id}::uuid`);
  return Prisma.join(where, " AND ");
}

/** How many deployments match the filters (the dashboard's total). */
export async function countDeployments(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
  options: ListOptions = {},
): Promise<number> {
  const [row] = await readRows<{ n: number }>(
    db,
    isWholeListByCreation(query, undefined, options.failed)
      ? wholeListCount(actor)
      : Prisma.sql`SELECT count(*)::int AS n FROM deployments d
                   WHERE ${deploymentFilter(actor, query, options)}`,
  );
  return row?.n ?? 0;
}

/** The page's ids, in order: from the ordering index, or for a deep page of the whole list, from its hour. */
function pageIds(actor: Actor, query: ListDeploymentsQuery, options: ListOptions): Prisma.Sql {
  if (
    query.offset >= SEEK_FROM_OFFSET &&
    isWholeListByCreation(query, options.sort, options.failed)
  )
    return seekPageIds(actor, query);
  return Prisma.sql`
    SELECT d.id FROM deployments d
    WHERE ${deploymentFilter(actor, query, options)}
    ORDER BY ${orderBy(options.sort)}
    OFFSET ${query.offset} LIMIT ${query.limit}`;
}

/**
 * The page as the contract's JSON text in one round trip: the page's ids first (index-only, see
 * `pageIds`), then only those rows are read, each with its stored contract JSON (`list_json`,
 * built by triggers exactly as `toDeployment` does: migration 20261126000000, held together by
 * tests/integration/deployments-list-json.test.ts), in the page's order. Node joins the rows'
 * texts: no rows to map and no JSON to build, and the REST door sends the text as it is.
 * One row per deployment, not one `string_agg` value for the page: PostgreSQL spent 3–4 times
 * the CPU aggregating and sending the page as a single value (one client, a page of 100: 3.7 ms
 * of backend CPU per query against 0.8 for its rows).
 */
export async function listDeploymentsJson(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
  options: ListOptions = {},
): Promise<string> {
  const rows = await readRows<{ json: string }>(
    db,
    Prisma.sql`
    WITH page AS (${pageIds(actor, query, options)})
    SELECT d.list_json AS json FROM page JOIN deployments d ON d.id = page.id
    ORDER BY ${orderBy(options.sort)}`,
  );
  const offset = query.offset + rows.length;
  return `{"resources":[${rows.map((r) => r.json).join(",")}],"offset":${offset}}`;
}

/**
 * Newest first (created_at desc, id desc) unless sorted otherwise; `offset` in the answer is
 * where the next page starts.
 */
export async function listDeployments(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
  options: ListOptions = {},
): Promise<Page<Deployment>> {
  return JSON.parse(await listDeploymentsJson(db, actor, query, options)) as Page<Deployment>;
}
