import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { recordAudit, type AuditEntry } from "./audit/record";

/**
 * The admin command (`npm run hangar`) acts as the installation's operator: no user and no API
 * key. Its request id starts with "cli-", so its audit events are recognisable as such.
 */
export interface Operator {
  requestId: string;
}

export function newOperator(): Operator {
  return { requestId: `cli-${randomUUID()}` };
}

/** The operator as an admin of an organization, before any workspace is chosen. */
export function operatorInOrganization(
  operator: Operator,
  organizationId: string,
): Omit<Actor, "workspaceId"> {
  return {
    kind: "user",
    userId: null,
    apiKeyId: null,
    role: "admin",
    orgRole: "owner",
    organizationId,
    ...operator,
  };
}

/** The operator as an admin of one workspace, so it goes through the same services as users. */
export function operatorActor(
  operator: Operator,
  scope: { organizationId: string; workspaceId: string },
): Actor {
  return {
    ...operatorInOrganization(operator, scope.organizationId),
    workspaceId: scope.workspaceId,
  };
}

/** Audit for organization-level changes, which belong to no workspace. */
export async function recordOrganizationAudit(
  db: DbClient,
  operator: Operator,
  organizationId: string,
  entry: AuditEntry,
): Promise<void> {
  await recordAudit(
    db,
    { organizationId, workspaceId: null, requestId: operator.requestId },
    entry,
  );
}
