import type { Organization as OrganizationRow } from "@/generated/prisma/client";
import type { Db } from "@/server/db";
import { notFound } from "@/server/errors";
import type { Organization } from "@/schemas/workspaces";
import { recordOrganizationAudit, type Operator } from "./operator";

// Organizations are the operator's to create (admin command); the dashboard works inside one.

export const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
});

export async function getOrganization(db: Db, id: string): Promise<Organization> {
  const row = await db.organization.findUnique({ where: { id } });
  if (!row) throw notFound(`Organization ${id} not found.`);
  return toOrganization(row);
}

export async function listOrganizations(db: Db): Promise<Organization[]> {
  const rows = await db.organization.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toOrganization);
}

export async function createOrganization(
  db: Db,
  operator: Operator,
  input: { name: string },
): Promise<Organization> {
  return db.$transaction(async (tx) => {
    const row = await tx.organization.create({ data: { name: input.name } });
    await recordOrganizationAudit(tx, operator, row.id, {
      action: "organization.create",
      targetType: "organization",
      targetId: row.id,
      data: { name: row.name },
    });
    return toOrganization(row);
  });
}
