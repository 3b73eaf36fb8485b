import { Prisma } from "@/generated/prisma/client";
import type { Page } from "@/schemas/common";
import type { Deployment, ListDeploymentsQuery } from "@/schemas/deployments";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { toDeployment, type DeploymentView } from "./serialize";

/** ILIKE's default escape is `\`: `%` and `_` in the text must match themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const uuidList = (ids: string[]) => Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));

/** The nine filters of contract 5.1 as SQL conditions on `d`, always inside the workspace. */
export function deploymentFilter(actor: Actor, query: ListDeploymentsQuery): Prisma.Sql {
  const where = [Prisma.sql`d.workspace_id = ${actor.workspaceId}::uuid`];
  if (query.name_contains)
    where.push(Prisma.sql`d.name ILIKE ${`%${likeLiteral(query.name_contains)}%`}`);
  if (query.status?.length) {
    const statuses = query.status.map((s) => Prisma.sql`${s}::"DeploymentStatus"`);
    where.push(Prisma.sql`d.status IN (${Prisma.join(statuses)})`);
  }
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
  return Prisma.join(where, " AND ");
}

/**
 * Newest first (created_at desc, id desc); `offset` in the answer is where the next page starts.
 * One round trip: the page's ids are found on the ordering index first (cheap even at deep
 * offsets), then only those rows are read, each with its secrets' names, secret references and
 * tags aggregated beside it.
 */
export async function listDeployments(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
): Promise<Page<Deployment>> {
  const rows = await db.$queryRaw<DeploymentView[]>`
    WITH page AS (
      SELECT d.id, d.created_at FROM deployments d
      WHERE ${deploymentFilter(actor, query)}
      ORDER BY d.created_at DESC, d.id DESC
      OFFSET ${query.offset} LIMIT ${query.limit}
    )
    SELECT d.id, d.workspace_id AS "workspaceId", d.name, d.source::text AS source,
           d.status::text AS status, d.source_config AS "sourceConfig",
           d.source_revision_config AS "sourceRevisionConfig", d.image_version AS "imageVersion",
           d.latest_revision_id AS "latestRevisionId", d.active_revision_id AS "activeRevisionId",
           d.created_at AS "createdAt", d.updated_at AS "updatedAt", d.runtime::text AS runtime,
           d.tracked_packages AS "trackedPackages",
           COALESCE((SELECT json_agg(json_build_object('name', s.name) ORDER BY s.name)
                     FROM secrets s WHERE s.deployment_id = d.id), '[]') AS secrets,
           COALESCE((SELECT json_agg(json_build_object('name', r.name, 'secretName', r.secret_name,
                                                       'secretKey', r.secret_key) ORDER BY r.name)
                     FROM secret_references r WHERE r.deployment_id = d.id), '[]') AS "secretReferences",
           COALESCE((SELECT json_agg(json_build_object('tagValueId', t.tag_value_id))
                     FROM deployment_tags t WHERE t.deployment_id = d.id), '[]') AS tags
    FROM page JOIN deployments d ON d.id = page.id
    ORDER BY page.created_at DESC, page.id DESC`;
  return { resources: rows.map(toDeployment), offset: query.offset + rows.length };
}
