"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { FormField, formErrors } from "@/components/ui/form-field";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { addMemberInput, type AddedMember } from "@/schemas/members";
import { apiFailure } from "@/trpc/errors";
import { useTRPC } from "@/trpc/react";
import { roleLabels, roles } from "../role-notice";

const addSchema = addMemberInput.pick({ email: true, role: true });
type AddValues = z.input<typeof addSchema>;

export function AddMemberForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [added, setAdded] = useState<AddedMember | null>(null);
  const form = useForm<AddValues, unknown, z.output<typeof addSchema>>({
    resolver: zodResolver(addSchema, formErrors),
    defaultValues: { email: "", role: "viewer" },
  });
  const add = useMutation(
    trpc.members.add.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`Added ${result.member.email} as ${result.member.role}`);
        form.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
        if (result.initial_password) setAdded(result);
      },
      onError: (error) => {
        const failed = apiFailure(error);
        form.setError("email", { message: failed.message }, { shouldFocus: true });
      },
    }),
  );
  return (
    <>
      <form
        noValidate
        aria-label="Add a member"
        onSubmit={form.handleSubmit((v) => add.mutate(v))}
        className="flex flex-wrap items-start gap-3"
      >
        <FormField
          id="member-email"
          label="Email"
          className="min-w-64 flex-1 space-y-1.5"
          error={form.formState.errors.email?.message}
        >
          {(aria) => (
            <Input
              {...aria}
              type="email"
              autoComplete="off"
              placeholder="name@company.com"
              {...form.register("email")}
            />
          )}
        </FormField>
        <FormField id="member-role" label="Role">
          {(aria) => (
            <Select {...aria} {...form.register("role")}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {roleLabels[r]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <Button type="submit" className="mt-6" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add member"}
        </Button>
      </form>
      <Dialog
        open={!!added}
        onClose={() => setAdded(null)}
        title="Account created"
        description={`${added?.member.email} had no account. Give them this initial password; it is shown only once.`}
      >
        {added?.initial_password && (
          <div className="space-y-4">
            <div className="flex gap-2">
              <label htmlFor="initial-password" className="sr-only">
                Initial password
              </label>
              <input
                id="initial-password"
                readOnly
                data-autofocus
                value={added.initial_password}
                className="h-9 w-full rounded-md border border-zinc-200 bg-zinc-50 px-3 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
              />
              <CopyButton text={added.initial_password} label="Copy password" />
            </div>
            <div className="flex justify-end">
              <Button onClick={() => setAdded(null)}>Done</Button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}
