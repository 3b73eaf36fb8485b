"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "@/components/ui/toast";
import type { SessionMe } from "@/schemas/session";
import { switchWorkspace } from "@/server/auth/actions";
import { clearQueryCache } from "@/trpc/query-cache";

export function WorkspaceSwitcher({ me }: { me: SessionMe }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const current = me.workspaces.find((w) => w.id === me.current_workspace_id);
  const organizations = [...new Set(me.workspaces.map((w) => w.organization_name))];

  if (me.workspaces.length < 2) {
    return <span className="truncate text-sm font-medium">{current?.name ?? "Workspace"}</span>;
  }

  const onChange = (workspaceId: string) =>
    startTransition(async () => {
      await switchWorkspace(workspaceId);
      // Everything cached belongs to the previous workspace.
      clearQueryCache();
      router.push("/deployments");
      router.refresh();
      toast.success(`Switched to ${me.workspaces.find((w) => w.id === workspaceId)?.name}`);
    });

  return (
    <>
      <label htmlFor="workspace-switcher" className="sr-only">
        Workspace
      </label>
      <select
        id="workspace-switcher"
        value={me.current_workspace_id}
        disabled={pending}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 max-w-full min-w-0 truncate rounded-md sm:max-w-64 border border-transparent bg-transparent pr-7 dark:bg-zinc-950 pl-2 text-sm font-medium hover:border-zinc-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:border-zinc-800"
      >
        {organizations.map((org) => (
          <optgroup key={org} label={org}>
            {me.workspaces
              .filter((w) => w.organization_name === org)
              .map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    </>
  );
}
