"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormField, formErrors } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { changePasswordInput } from "@/schemas/account";
import { apiFailure, issuesByPath } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";

const formSchema = changePasswordInput
  .and(z.object({ confirm_password: z.string() }))
  .refine((v) => v.confirm_password === v.new_password, {
    message: "The two new passwords do not match.",
    path: ["confirm_password"],
  });
type FormValues = z.input<typeof formSchema>;
const fields = ["current_password", "new_password", "confirm_password"] as const;

/** Current password, new password twice; on success the user's other sessions are signed out. */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  const trpc = useTRPC();
  const form = useForm<FormValues, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema, formErrors),
    defaultValues: { current_password: "", new_password: "", confirm_password: "" },
  });
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: (result) => {
        form.reset();
        const others = result.ended_sessions;
        toast.success(
          others > 0
            ? `Password changed. ${others} other ${others === 1 ? "session was" : "sessions were"} signed out.`
            : "Password changed.",
        );
        onChanged?.();
      },
      onError: (error) => {
        const failed = apiFailure(error);
        const byPath = issuesByPath(failed.issues);
        const field = fields.find((f) => byPath[f]) ?? "current_password";
        form.setError(field, { message: byPath[field] ?? failed.message }, { shouldFocus: true });
      },
    }),
  );
  const errors = form.formState.errors;
  const labels: Record<(typeof fields)[number], [string, string]> = {
    current_password: ["Current password", "current-password"],
    new_password: ["New password", "new-password"],
    confirm_password: ["Confirm new password", "new-password"],
  };
  return (
    <form
      noValidate
      aria-label="Change password"
      onSubmit={form.handleSubmit(({ current_password, new_password }) =>
        change.mutate({ current_password, new_password }),
      )}
      className="max-w-sm space-y-4"
    >
      {fields.map((name) => (
        <FormField
          key={name}
          id={`account-${name}`}
          label={labels[name][0]}
          hint={name === "new_password" ? "At least 8 characters." : undefined}
          error={errors[name]?.message}
        >
          {(aria) => (
            <Input
              {...aria}
              type="password"
              autoComplete={labels[name][1]}
              {...form.register(name)}
            />
          )}
        </FormField>
      ))}
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
