import Link from "next/link";
import { Popover } from "@/components/ui/popover";
import { signOutAction } from "@/server/auth/actions";
import { LogOutIcon, UserRoundIcon } from "./header-icons";

/** The menu's entries, a link and a sign-out button alike. */
const menuItem =
  "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800";

export function UserMenu({
  email,
  name,
  role,
}: {
  email: string;
  name: string | null;
  role: string;
}) {
  const initial = (name ?? email).charAt(0).toUpperCase();
  return (
    <Popover
      label={`Account: ${email}`}
      align="end"
      triggerClassName="flex size-8 items-center justify-center rounded-full bg-gradient-to-br from-zinc-700 to-zinc-900 text-sm font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:from-zinc-200 dark:to-zinc-400 dark:text-zinc-900"
      trigger={<span aria-hidden>{initial}</span>}
    >
      <div className="w-60">
        <div className="border-b border-zinc-200 px-3 py-2.5 dark:border-zinc-800">
          {name && <p className="truncate text-sm font-medium">{name}</p>}
          <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{email}</p>
          <p className="mt-1 text-xs text-zinc-500 capitalize dark:text-zinc-400">Role: {role}</p>
        </div>
        <div className="border-b border-zinc-200 p-1 dark:border-zinc-800">
          <Link href="/settings/account" className={menuItem}>
            <UserRoundIcon aria-hidden className="size-4" />
            Change password
          </Link>
        </div>
        <form action={signOutAction} className="p-1">
          <button type="submit" className={menuItem}>
            <LogOutIcon aria-hidden className="size-4" />
            Sign out
          </button>
        </form>
      </div>
    </Popover>
  );
}
