"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { OrgRoleName, RoleName } from "@/schemas/api-keys";
import type { Member } from "@/schemas/members";
import { useTRPC } from "@/trpc/react";
import { orgRoleLabels, orgRoles, roleLabels, roles } from "../role-notice";
import { AddMemberForm } from "./add-member-form";

const keys = (n: number) => `${n} API key${n === 1 ? "" : "s"}`;
/** What a change did to the member's personal keys, for the toast ("" when nothing). */
const narrowedWords = (n: number, to: string) =>
  n ? `; ${keys(n)} they made ${n === 1 ? "was" : "were"} narrowed to ${to}` : "";

export function MembersView({
  isAdmin,
  myUserId,
  myOrgRole,
}: {
  isAdmin: boolean;
  myUserId: string;
  myOrgRole: OrgRoleName;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.members.list.queryOptions());
  const [removing, setRemoving] = useState<Member | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
  const changeRole = useMutation(
    trpc.members.changeRole.mutationOptions({
      onSuccess: async (m) => {
        toast.success(`${m.email} is now ${m.role}${narrowedWords(m.api_keys_narrowed, m.role)}`);
        await refresh();
      },
      // The select shows the server's value again after a refused change (e.g. the last admin).
      onError: async (error) => {
        toast.error(error.message);
        await refresh();
      },
    }),
  );
  const setOrgRole = useMutation(
    trpc.members.setOrgRole.mutationOptions({
      onSuccess: async (m) => {
        toast.success(
          `${m.email} is now organization ${m.org_role}` +
            narrowedWords(m.api_keys_narrowed, `organization ${m.org_role}`),
        );
        await refresh();
      },
      onError: async (error) => {
        toast.error(error.message);
        await refresh();
      },
    }),
  );
  // Admins grant admin and member; only owners grant or take away owner (the server checks too).
  const isOrgAdmin = myOrgRole === "owner" || myOrgRole === "admin";
  const grantable = orgRoles.filter((r) => myOrgRole === "owner" || r !== "owner");
  const remove = useMutation(
    trpc.members.remove.mutationOptions({
      onSuccess: async ({ api_keys_revoked: revoked }) => {
        toast.success(
          `Removed ${removing?.email}` +
            (revoked ? ` and revoked ${keys(revoked)} they made here` : ""),
        );
        setRemoving(null);
        await refresh();
      },
      onError: (error) => {
        toast.error(error.message);
        setRemoving(null);
      },
    }),
  );

  return (
    <div className="space-y-6">
      {isAdmin && <AddMemberForm />}
      {list.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : list.isError ? (
        <Alert>Could not load members: {list.error.message}</Alert>
      ) : (
        <Table aria-label="Members">
          <thead>
            <tr>
              <Th>Member</Th>
              <Th>Role</Th>
              <Th>Organization role</Th>
              <Th>Joined</Th>
              {isAdmin && (
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.data.map((m) => (
              <Tr key={m.user_id}>
                <Td>
                  <span className="block font-medium">
                    {m.name ?? m.email}
                    {m.user_id === myUserId && (
                      <span className="ml-2 text-xs text-zinc-500 dark:text-zinc-400">(you)</span>
                    )}
                  </span>
                  {m.name && (
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                      {m.email}
                    </span>
                  )}
                  {isAdmin && m.api_keys > 0 && (
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                      {keys(m.api_keys)} made here
                    </span>
                  )}
                </Td>
                <Td>
                  {isAdmin ? (
                    <>
                      <label htmlFor={`role-${m.user_id}`} className="sr-only">
                        Role of {m.email}
                      </label>
                      <Select
                        id={`role-${m.user_id}`}
                        value={m.role}
                        disabled={changeRole.isPending}
                        onChange={(e) =>
                          changeRole.mutate({ userId: m.user_id, role: e.target.value as RoleName })
                        }
                      >
                        {roles.map((r) => (
                          <option key={r} value={r}>
                            {roleLabels[r]}
                          </option>
                        ))}
                      </Select>
                    </>
                  ) : (
                    roleLabels[m.role]
                  )}
                </Td>
                <Td>
                  {isOrgAdmin && (myOrgRole === "owner" || m.org_role !== "owner") ? (
                    <>
                      <label htmlFor={`org-role-${m.user_id}`} className="sr-only">
                        Organization role of {m.email}
                      </label>
                      <Select
                        id={`org-role-${m.user_id}`}
                        value={m.org_role}
                        disabled={setOrgRole.isPending}
                        onChange={(e) =>
                          setOrgRole.mutate({
                            userId: m.user_id,
                            role: e.target.value as OrgRoleName,
                          })
                        }
                      >
                        {grantable.map((r) => (
                          <option key={r} value={r}>
                            {orgRoleLabels[r]}
                          </option>
                        ))}
                      </Select>
                    </>
                  ) : (
                    orgRoleLabels[m.org_role]
                  )}
                </Td>
                <Td className="text-zinc-600 dark:text-zinc-400">
                  <RelativeTime iso={m.created_at} />
                </Td>
                {isAdmin && (
                  <Td className="text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setRemoving(m)}
                      aria-label={`Remove ${m.email}`}
                    >
                      Remove
                    </Button>
                  </Td>
                )}
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      <ConfirmDialog
        variant="danger"
        pendingLabel="Removing…"
        open={!!removing}
        title="Remove member"
        description={
          `${removing?.email} loses access to this workspace. Their account stays.` +
          (removing?.api_keys
            ? ` The ${keys(removing.api_keys)} they made here will be revoked; service keys stay.`
            : "")
        }
        confirmLabel="Remove member"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ userId: removing.user_id })}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
