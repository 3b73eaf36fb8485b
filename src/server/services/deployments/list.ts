import type { Prisma } from "@/generated/prisma/client";
import type { Page } from "@/schemas/common";
import type { Deployment, ListDeploymentsQuery } from "@/schemas/deployments";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { deploymentInclude, toDeployment } from "./serialize";

/** Prisma's `contains` becomes ILIKE without escaping: `%` and `_` must match themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The nine filters of contract 5.1 as one Prisma condition, always inside the workspace. */
export function deploymentFilter(
  actor: Actor,
  query: ListDeploymentsQuery,
): Prisma.DeploymentWhereInput {
  const where: Prisma.DeploymentWhereInput = { workspaceId: actor.workspaceId };
  if (query.name_contains)
    where.name = { contains: likeLiteral(query.name_contains), mode: "insensitive" };
  if (query.status?.length) where.status = { in: query.status };
  if (query.remote_reconciled !== undefined)
    where.listenerId = query.remote_reconciled ? { not: null } : null;
  if (query.tag_value_ids?.length) {
    where.AND = [...new Set(query.tag_value_ids)].map((tagValueId) => ({
      tags: { some: { tagValueId } },
    }));
  }
  if (query.image_version !== undefined) where.imageVersion = query.image_version;
  if (query.deployment_type) where.deploymentType = query.deployment_type;
  if (query.deployment_ids?.length) where.id = { in: query.deployment_ids };
  return where;
}

/**
 * Newest first (created_at desc, id desc); `offset` in the answer is where the next page starts.
 * The page's ids are found first (a narrow scan of the ordering index, cheap even at deep
 * offsets), then only those rows are loaded with their secrets, references and tags.
 */
export async function listDeployments(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
): Promise<Page<Deployment>> {
  const orderBy: Prisma.DeploymentOrderByWithRelationInput[] = [
    { createdAt: "desc" },
    { id: "desc" },
  ];
  const ids = await db.deployment.findMany({
    where: deploymentFilter(actor, query),
    select: { id: true },
    orderBy,
    skip: query.offset,
    take: query.limit,
  });
  const rows = ids.length
    ? await db.deployment.findMany({
        where: { id: { in: ids.map((r) => r.id) } },
        include: deploymentInclude,
        orderBy,
      })
    : [];
  return { resources: rows.map(toDeployment), offset: query.offset + rows.length };
}
