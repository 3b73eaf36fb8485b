import { z } from "zod";
import { orgRoleSchema, roleSchema } from "./api-keys";
import { timestamp, uuid } from "./common";

// Workspace members: users and the role their membership gives them.

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));
export const passwordSchema = z.string().min(8).max(1000);

export const member = z
  .object({
    user_id: uuid,
    email: z.string(),
    name: z.string().nullable(),
    role: roleSchema,
    org_role: orgRoleSchema.meta({ description: "The user's role in the organization" }),
    api_keys: z.number().int().min(0).meta({
      description: "Live personal API keys the member made in this workspace (revoked on removal)",
    }),
    created_at: timestamp.meta({ description: "When the user joined this workspace" }),
  })
  .meta({ id: "Member" });
export type Member = z.infer<typeof member>;

export const addMemberInput = z
  .object({
    email: emailSchema,
    role: roleSchema,
    name: z.string().trim().min(1).max(200).optional(),
    password: passwordSchema
      .optional()
      .meta({ description: "Initial password for a new user; generated when omitted" }),
  })
  .meta({ id: "AddMember" });
export type AddMemberInput = z.infer<typeof addMemberInput>;

export const addedMember = z
  .object({
    member,
    created_user: z.boolean().meta({ description: "False when the email already had an account" }),
    initial_password: z
      .string()
      .optional()
      .meta({ description: "Present once, when the service generated the new user's password" }),
  })
  .meta({ id: "AddedMember" });
export type AddedMember = z.infer<typeof addedMember>;

export const changedMember = member
  .extend({
    api_keys_narrowed: z.number().int().min(0).meta({
      description: "How many of the member's personal API keys the change narrowed to the new role",
    }),
  })
  .meta({ id: "ChangedMember" });
export type ChangedMember = z.infer<typeof changedMember>;

export const removedMember = z
  .object({
    user_id: uuid,
    api_keys_revoked: z
      .number()
      .int()
      .min(0)
      .meta({ description: "How many personal API keys the member made here were revoked" }),
  })
  .meta({ id: "RemovedMember" });
export type RemovedMember = z.infer<typeof removedMember>;

export const changeRoleInput = z.object({ userId: uuid, role: roleSchema });
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const setOrgRoleInput = z.object({ userId: uuid, role: orgRoleSchema });
export type SetOrgRoleInput = z.infer<typeof setOrgRoleInput>;

export const memberIdInput = z.object({ userId: uuid });
