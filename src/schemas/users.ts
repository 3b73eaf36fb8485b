import { z } from "zod";
import { timestamp, uuid } from "./common";
import { emailSchema, passwordSchema } from "./members";

// Accounts: a user signs in with email and password and joins workspaces through memberships.

export const user = z
  .object({ id: uuid, email: z.string(), name: z.string().nullable(), created_at: timestamp })
  .meta({ id: "User" });
export type User = z.infer<typeof user>;

export const createUserInput = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().min(1).max(200).optional(),
});
export type CreateUserInput = z.infer<typeof createUserInput>;
