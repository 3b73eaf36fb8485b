import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Logo } from "@/components/shell/logo";
import { ForcedPasswordChange } from "@/components/settings/account/forced-password-change";
import { auth } from "@/server/auth/nextauth";
import { loadMe } from "@/trpc/session";

export const metadata: Metadata = { title: "Choose a new password" };

/** Where a user signed in with a one-time password lands until they pick their own. */
export default async function ChangePasswordPage() {
  const session = await auth();
  if (!session?.userId) redirect("/signin");
  const me = await loadMe();
  if (!me?.user.must_change_password) redirect("/settings/account");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="flex flex-col items-center text-center">
          <Logo />
          <h1 className="mt-6 text-2xl font-semibold tracking-tight">Choose a new password</h1>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            You signed in with a one-time password from an admin. Set your own to continue.
          </p>
        </div>
        <div className="mt-8 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900/60">
          <ForcedPasswordChange />
        </div>
      </div>
    </main>
  );
}
