import { z } from "zod";
import { roleSchema } from "./api-keys";
import { timestamp, uuid } from "./common";

// Organizations and their workspaces.

const displayName = z.string().trim().min(1).max(100);

export const organization = z
  .object({ id: uuid, name: z.string(), created_at: timestamp })
  .meta({ id: "Organization" });
export type Organization = z.infer<typeof organization>;

export const workspace = z
  .object({ id: uuid, organization_id: uuid, name: z.string(), created_at: timestamp })
  .meta({ id: "Workspace" });
export type Workspace = z.infer<typeof workspace>;

/** A workspace as the signed-in user sees it in the switcher. */
export const myWorkspace = workspace
  .extend({
    organization_name: z.string(),
    role: roleSchema,
    current: z.boolean().meta({ description: "The workspace this session acts in" }),
  })
  .meta({ id: "MyWorkspace" });
export type MyWorkspace = z.infer<typeof myWorkspace>;

export const createOrganizationInput = z.object({ name: displayName });
export const createWorkspaceInput = z.object({ name: displayName }).meta({ id: "CreateWorkspace" });
export type CreateWorkspaceInput = z.infer<typeof createWorkspaceInput>;
