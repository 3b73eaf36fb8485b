import { randomBytes } from "node:crypto";
import type { Db } from "@/server/db";
import { hashApiKey } from "@/server/auth/api-keys";
import { hashPassword } from "@/server/auth/passwords";

export const DEFAULT_ORGANIZATION = "Default organization";
export const DEFAULT_WORKSPACE = "Default workspace";

export interface BootstrapOptions {
  apiKey?: string;
  adminEmail: string;
  /** Unset: a random password is generated when the admin user is first created. */
  adminPassword?: string;
}

export interface BootstrapResult {
  workspaceId: string;
  /** Set only when this call created the admin with a generated password (show it once). */
  generatedPassword: string | null;
}

/**
 * Idempotently ensures the default organization and workspace, an admin user (when the
 * installation has no users yet, or a bootstrap key is given) and the bootstrap admin API key.
 */
export async function bootstrap(
  db: Db,
  options: BootstrapOptions,
): Promise<BootstrapResult | null> {
  const users = await db.user.count();
  if (users > 0 && !options.apiKey) return null;
  const password = options.adminPassword ?? randomBytes(18).toString("base64url");
  const passwordHash = await hashPassword(password);

  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4242001)`;
    let organization = await tx.organization.findFirst({
      where: { name: DEFAULT_ORGANIZATION },
      orderBy: { createdAt: "asc" },
    });
    organization ??= await tx.organization.create({ data: { name: DEFAULT_ORGANIZATION } });
    let workspace = await tx.workspace.findFirst({
      where: { organizationId: organization.id, name: DEFAULT_WORKSPACE },
      orderBy: { createdAt: "asc" },
    });
    workspace ??= await tx.workspace.create({
      data: { organizationId: organization.id, name: DEFAULT_WORKSPACE },
    });

    const email = options.adminEmail.toLowerCase();
    let admin = await tx.user.findUnique({ where: { email } });
    const created = !admin;
    admin ??= await tx.user.create({ data: { email, name: "Admin", passwordHash } });
    await tx.membership.upsert({
      where: { userId_workspaceId: { userId: admin.id, workspaceId: workspace.id } },
      create: { userId: admin.id, workspaceId: workspace.id, role: "admin" },
      update: {},
    });
    // The bootstrap user and key administer the organization (its providers, integrations).
    await tx.organizationMember.upsert({
      where: { organizationId_userId: { organizationId: organization.id, userId: admin.id } },
      create: { organizationId: organization.id, userId: admin.id, role: "admin" },
      update: {},
    });

    // The bootstrap key is a service key: it answers to the configuration, not to a person
    // (earlier versions made it the admin user's, or an organization member).
    if (options.apiKey) {
      const keyHash = hashApiKey(options.apiKey);
      const existing = await tx.apiKey.findUnique({ where: { keyHash } });
      const service = {
        kind: "service",
        createdById: null,
        role: "admin",
        orgRole: "admin",
      } as const;
      const differs = (Object.keys(service) as (keyof typeof service)[]).some(
        (field) => existing?.[field] !== service[field],
      );
      if (existing && differs) {
        await tx.apiKey.update({ where: { id: existing.id }, data: service });
      } else if (!existing) {
        await tx.apiKey.create({
          data: {
            ...service,
            organizationId: organization.id,
            workspaceId: workspace.id,
            name: "Bootstrap key",
            prefix: options.apiKey.slice(0, 12),
            keyHash,
          },
        });
      }
    }
    return {
      workspaceId: workspace.id,
      generatedPassword: created && !options.adminPassword ? password : null,
    };
  });
}
