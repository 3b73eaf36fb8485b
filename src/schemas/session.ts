import { z } from "zod";
import { uuid } from "./common";

// The signed-in user as the dashboard sees them: who they are and where they may act.

export const role = z.enum(["viewer", "editor", "admin"]);
export const orgRole = z.enum(["owner", "admin", "member"]);

export const sessionWorkspace = z.object({
  id: uuid,
  name: z.string(),
  organization_name: z.string(),
  role,
});

export const sessionMe = z.object({
  user: z.object({
    id: uuid,
    email: z.string(),
    name: z.string().nullable(),
    /** Signed in with an admin's one-time password: the dashboard asks for a new one first. */
    must_change_password: z.boolean(),
  }),
  workspaces: z.array(sessionWorkspace),
  current_workspace_id: uuid,
  role,
  /** In the current workspace's organization: owner and admin change providers and integrations. */
  org_role: orgRole,
});
export type SessionMe = z.infer<typeof sessionMe>;
