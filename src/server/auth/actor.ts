import type { OrgRole, Role } from "@/generated/prisma/enums";
import { AppError } from "@/server/errors";

/** Said to a session still on a one-time password wherever it may not go yet. */
export const ONE_TIME_PASSWORD =
  "Choose your own password first: you signed in with a one-time password.";

/** Said to a request with no credentials, or a session cookie that no longer opens anything. */
export const MISSING_CREDENTIALS = "Missing credentials: send an X-Api-Key header or sign in";

/**
 * What a deployment's tracing ingest key may touch (contract 15.7): runs of this one project,
 * written only. Set only on `ingest_key` actors, which only the tracing ingest routes accept.
 */
export interface IngestScope {
  keyId: string;
  deploymentId: string;
  projectId: string;
  projectName: string;
}

/** Who is calling, in which workspace, with which role: produced by API keys and sessions alike. */
export interface Actor {
  kind: "api_key" | "user" | "ingest_key";
  userId: string | null;
  apiKeyId: string | null;
  organizationId: string;
  workspaceId: string;
  role: Role;
  /** The role in the organization (providers, integrations): every actor is at least a member. */
  orgRole: OrgRole;
  /** The dashboard session (browser) making the request, for signed-in users. */
  sessionId?: string;
  /** A signed-in user still on an admin's one-time password: may only replace it. */
  mustChangePassword?: boolean;
  requestId?: string;
  /** A deployment's ingest key: writes runs into its own project only. */
  ingest?: IngestScope;
}

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

export function hasRole(actor: Actor, min: Role): boolean {
  return rank[actor.role] >= rank[min];
}

/** The lower of two workspace roles (a personal key acts with at most its maker's). */
export const lowerRole = (a: Role, b: Role): Role => (rank[a] <= rank[b] ? a : b);

/** Throws 403 unless the actor holds at least `min`. Viewers may only read. */
export function requireRole(actor: Actor, min: Role): void {
  if (!hasRole(actor, min)) {
    throw new AppError("forbidden", `This action needs the ${min} role; you have ${actor.role}.`);
  }
}

const orgRank: Record<OrgRole, number> = { member: 0, admin: 1, owner: 2 };

export function hasOrgRole(actor: Actor, min: OrgRole): boolean {
  return orgRank[actor.orgRole] >= orgRank[min];
}

export const lowerOrgRole = (a: OrgRole, b: OrgRole): OrgRole => (orgRank[a] <= orgRank[b] ? a : b);

/** Throws 403 unless the actor holds at least `min` in the organization. */
export function requireOrgRole(actor: Actor, min: OrgRole): void {
  if (!hasOrgRole(actor, min)) {
    throw new AppError(
      "forbidden",
      `This action needs the organization ${min} role; you have organization ${actor.orgRole}.`,
    );
  }
}
