import type { Prisma } from "@/generated/prisma/client";
import type { AgentConnectionView } from "@/schemas/agent-auth";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { conflict, isUniqueViolation, notFound } from "@/server/errors";
import { recordAudit } from "../audit/record";
import { findTokenRow, requireTokenWriter } from "./context";

// Agents (deployments) connected to users' tokens: authenticate with agent_id answers
// connection_required until the token is connected to that agent.

const include = { token: { include: { provider: true } } } as const;
type ConnectionRow = Prisma.AgentConnectionGetPayload<{ include: typeof include }>;

const toView = (row: ConnectionRow): AgentConnectionView => ({
  id: row.id,
  agent_id: row.deploymentId,
  oauth_token_id: row.tokenId,
  provider_id: row.token.provider.providerId,
  provider_account_label: row.token.providerAccountLabel,
  scopes: row.token.scopes,
  expires_at: row.token.expiresAt?.toISOString() ?? null,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
});

async function findAgent(db: Db, actor: Actor, agentId: string) {
  const agent = await db.deployment.findFirst({
    where: { id: agentId, workspaceId: actor.workspaceId },
  });
  if (!agent) throw notFound(`Deployment ID ${agentId} not found.`);
  return agent;
}

/** A session acts only on connections to its own tokens. */
const ownTokens = (actor: Actor): Prisma.AgentConnectionWhereInput =>
  actor.kind === "user" ? { token: { userId: actor.userId! } } : {};

export async function listConnections(db: Db, actor: Actor, agentId: string) {
  await findAgent(db, actor, agentId);
  const rows = await db.agentConnection.findMany({
    where: { deploymentId: agentId, workspaceId: actor.workspaceId, ...ownTokens(actor) },
    include,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toView);
}

export async function createConnection(
  db: Db,
  actor: Actor,
  agentId: string,
  tokenId: string,
): Promise<AgentConnectionView> {
  requireTokenWriter(actor);
  const agent = await findAgent(db, actor, agentId);
  const token = await findTokenRow(db, actor, tokenId);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.agentConnection.create({
        data: {
          workspaceId: actor.workspaceId,
          deploymentId: agent.id,
          tokenId: token.id,
          createdBy: actor.userId ?? actor.apiKeyId,
        },
        include,
      });
      await recordAudit(tx, actor, {
        action: "agent_connection.create",
        targetType: "deployment",
        targetId: agent.id,
        data: { oauth_token_id: token.id, provider_id: token.provider.providerId },
      });
      return toView(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("This agent is already connected to that token.");
    throw error;
  }
}

export async function deleteConnections(
  db: Db,
  actor: Actor,
  agentId: string,
  connectionId?: string,
): Promise<{ deleted: number }> {
  requireTokenWriter(actor);
  await findAgent(db, actor, agentId);
  const where: Prisma.AgentConnectionWhereInput = {
    deploymentId: agentId,
    workspaceId: actor.workspaceId,
    ...(connectionId ? { id: connectionId } : {}),
    ...ownTokens(actor),
  };
  return db.$transaction(async (tx) => {
    const { count } = await tx.agentConnection.deleteMany({ where });
    if (connectionId && count === 0) throw notFound(`Connection ${connectionId} not found.`);
    await recordAudit(tx, actor, {
      action: "agent_connection.delete",
      targetType: "deployment",
      targetId: agentId,
      data: { connection_id: connectionId ?? null, deleted: count },
    });
    return { deleted: count };
  });
}
