import { z } from "zod";
import { passwordSchema } from "./members";

// The signed-in user's own account: their password.

export const changePasswordInput = z
  .object({
    current_password: z.string().min(1, "Enter your current password.").max(1000),
    new_password: passwordSchema,
  })
  .refine((v) => v.new_password !== v.current_password, {
    message: "The new password must differ from the current one.",
    path: ["new_password"],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const changedPassword = z.object({
  ended_sessions: z.number().int().meta({ description: "Other browser sessions signed out" }),
});
export type ChangedPassword = z.infer<typeof changedPassword>;
