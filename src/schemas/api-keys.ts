import { z } from "zod";
import { timestamp, uuid } from "./common";

// API keys of a workspace (contract 2): shown once at creation, then only by prefix.

export const roleSchema = z.enum(["admin", "editor", "viewer"]);
export type RoleName = z.infer<typeof roleSchema>;

/** The organization role (providers, integrations): owner and admin change them, members read. */
export const orgRoleSchema = z.enum(["owner", "admin", "member"]);
export type OrgRoleName = z.infer<typeof orgRoleSchema>;
/** An API key is an organization admin or member, never an owner. */
export const keyOrgRoleSchema = z.enum(["admin", "member"]);

export const apiKeyKindSchema = z.enum(["personal", "service"]).meta({
  description:
    "personal: acts with at most its maker's current roles and stops when they leave the " +
    "workspace; service: belongs to the workspace, has no maker, outlives people",
});
export type ApiKeyKindName = z.infer<typeof apiKeyKindSchema>;

export const apiKey = z
  .object({
    id: uuid,
    name: z.string(),
    kind: apiKeyKindSchema,
    role: roleSchema,
    org_role: keyOrgRoleSchema,
    prefix: z.string().meta({ description: "The key's first characters, to recognise it" }),
    workspace_id: uuid.nullable().meta({ description: "Null for an organization-scoped key" }),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
    created_by: z
      .object({ id: uuid, email: z.string() })
      .nullable()
      .meta({ description: "A personal key's maker (null for a service key)" }),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof apiKey>;

export const createdApiKey = apiKey
  .extend({ key: z.string().meta({ description: "The secret key: shown once, never again" }) })
  .meta({ id: "CreatedApiKey" });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

export const createApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    kind: apiKeyKindSchema.default("personal"),
    role: roleSchema,
    org_role: keyOrgRoleSchema
      .default("member")
      .meta({ description: "admin: may change the organization's providers and integrations" }),
  })
  .meta({ id: "CreateApiKey" });
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

export const apiKeyIdInput = z.object({ id: uuid });
