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

/** Newest first (created_at desc, id desc); `offset` in the answer is where the next page starts. */
export async function listDeployments(
  db: DbClient,
  actor: Actor,
  query: ListDeploymentsQuery,
): Promise<Page<Deployment>> {
  const rows = await db.deployment.findMany({
    where: deploymentFilter(actor, query),
    include: deploymentInclude,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: query.offset,
    take: query.limit,
  });
  return { resources: rows.map(toDeployment), offset: query.offset + rows.length };
}
