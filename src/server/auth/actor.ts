import type { Role } from "@/generated/prisma/enums";
import { AppError } from "@/server/errors";

/** Who is calling, in which workspace, with which role: produced by API keys and sessions alike. */
export interface Actor {
  kind: "api_key" | "user";
  userId: string | null;
  apiKeyId: string | null;
  organizationId: string;
  workspaceId: string;
  role: Role;
  requestId?: string;
}

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

export function hasRole(actor: Actor, min: Role): boolean {
  return rank[actor.role] >= rank[min];
}

/** Throws 403 unless the actor holds at least `min`. Viewers may only read. */
export function requireRole(actor: Actor, min: Role): void {
  if (!hasRole(actor, min)) {
    throw new AppError("forbidden", `This action needs the ${min} role; you have ${actor.role}.`);
  }
}
