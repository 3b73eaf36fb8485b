import { Prisma } from "@/generated/prisma/client";
import type { Page } from "@/schemas/common";
import {
  SECRET_PLACEHOLDER,
  type Deployment,
  type ListDeploymentsQuery,
} from "@/schemas/deployments";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { emptySourceConfig, emptySourceRevisionConfig } from "./serialize";

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

/** The contract's `source_config` / `source_revision_config` defaults, as SQL `jsonb`. */
const defaultsJson = (value: object) => Prisma.sql`${JSON.stringify(value)}::jsonb`;

/**
 * The page as the contract's JSON text, built by PostgreSQL in one round trip: the page's ids
 * are found on the ordering index first (index-only), then only those rows are read, each with
 * its secrets' names, secret references and tags aggregated beside it, and turned into the
 * contract's Deployment exactly as `toDeployment` does (the property test in
 * tests/integration/deployments-list-single-query.test.ts holds the two together). The REST door
 * sends the text as it is: no rows to map and no JSON to build in Node, which was most of a
 * list request's CPU beside the framework's own.
 */
export async function listDeploymentsJson(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
): Promise<string> {
  const [row] = await db.$queryRaw<{ page: string }[]>`
    WITH page AS (
      SELECT d.id, d.created_at FROM deployments d
      WHERE ${deploymentFilter(actor, query)}
      ORDER BY d.created_at DESC, d.id DESC
      OFFSET ${query.offset} LIMIT ${query.limit}
    ),
    docs AS (
      SELECT page.created_at, page.id, json_build_object(
        'id', d.id,
        'tenant_id', d.workspace_id,
        'name', d.name,
        'source', d.source,
        'source_config', ${defaultsJson(emptySourceConfig)} || d.source_config,
        'source_revision_config', ${defaultsJson(emptySourceRevisionConfig)} || d.source_revision_config,
        'secrets', COALESCE((SELECT json_agg(json_build_object('name', s.name, 'value', ${SECRET_PLACEHOLDER}::text)
                                             ORDER BY s.name)
                             FROM secrets s WHERE s.deployment_id = d.id), '[]'),
        'secret_references', CASE WHEN d.source = 'external_container' THEN
            COALESCE((SELECT json_agg(json_build_object('name', r.name, 'secret_name', r.secret_name,
                                                        'secret_key', r.secret_key) ORDER BY r.name)
                      FROM secret_references r WHERE r.deployment_id = d.id), '[]') END,
        'image_version', d.image_version,
        'tag_value_ids', COALESCE((SELECT json_agg(t.tag_value_id ORDER BY t.tag_value_id)
                                   FROM deployment_tags t WHERE t.deployment_id = d.id), '[]'),
        'tracked_packages', to_json(d.tracked_packages),
        'status', d.status,
        'latest_revision_id', d.latest_revision_id,
        'active_revision_id', d.active_revision_id,
        'runtime', d.runtime,
        'created_at', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updated_at', to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) AS doc
      FROM page JOIN deployments d ON d.id = page.id
    )
    SELECT json_build_object(
      'resources', COALESCE(json_agg(doc ORDER BY created_at DESC, id DESC), '[]'),
      'offset', ${query.offset}::int + count(*)::int
    )::text AS page
    FROM docs`;
  return row!.page;
}

/** Newest first (created_at desc, id desc); `offset` in the answer is where the next page starts. */
export async function listDeployments(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
): Promise<Page<Deployment>> {
  return JSON.parse(await listDeploymentsJson(db, actor, query)) as Page<Deployment>;
}
