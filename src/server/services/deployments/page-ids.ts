import { Prisma } from "@/generated/prisma/client";
import type { ListDeploymentsQuery } from "@/schemas/deployments";
import type { Actor } from "@/server/auth/actor";

/** From this offset on, a page of the whole list starts from its hour's bucket. */
export const SEEK_FROM_OFFSET = 1_000;

/** Whether the query lists the whole workspace in the default order (what the buckets count). */
export function isWholeListByCreation(
  query: ListDeploymentsQuery,
  sort?: { by: string; dir: string },
  failed?: boolean,
): boolean {
  return (
    (!sort || (sort.by === "created" && sort.dir === "desc")) &&
    !failed &&
    !query.name_contains &&
    !query.status?.length &&
    query.remote_reconciled === undefined &&
    !query.tag_value_ids?.length &&
    query.image_version === undefined &&
    !query.deployment_type &&
    !query.deployment_ids?.length &&
    (query.previews ?? "include") === "include" &&
    !query.parent_id
  );
}

/**
 * The ids of a deep page of the whole list (created_at desc, id desc) without walking the
 * newer rows: deployment_time_buckets (migration 20261125210000) counts each hour's
 * deployments, so the hour holding row `offset` is found by a running sum from the newest hour
 * (stopping there), and the page starts at `offset - (rows in newer hours)` within that hour.
 * Same statement, same snapshot: the counts and the rows agree. Past the end: no rows.
 */
export function seekPageIds(actor: Actor, query: ListDeploymentsQuery): Prisma.Sql {
  return Prisma.sql`
    WITH seek AS (
      SELECT bucket, upto - n AS before FROM (
        SELECT bucket, n, sum(n) OVER (ORDER BY bucket DESC ROWS UNBOUNDED PRECEDING) AS upto
        FROM deployment_time_buckets WHERE workspace_id = ${actor.workspaceId}::uuid
        ORDER BY bucket DESC
      ) running
      WHERE upto > ${query.offset}::bigint
      LIMIT 1
    )
    SELECT d.id FROM deployments d
    WHERE d.workspace_id = ${actor.workspaceId}::uuid
      AND d.created_at < (SELECT bucket + interval '1 hour' FROM seek)
    ORDER BY d.created_at DESC, d.id DESC
    OFFSET (SELECT ${query.offset}::bigint - before FROM seek) LIMIT ${query.limit}`;
}

/** All of a workspace's deployments, from the buckets: no row is read. */
export function wholeListCount(actor: Actor): Prisma.Sql {
  return Prisma.sql`
    SELECT COALESCE(sum(n), 0)::int AS n FROM deployment_time_buckets
    WHERE workspace_id = ${actor.workspaceId}::uuid`;
}
