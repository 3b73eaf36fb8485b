import { CheckCircle2, XCircle } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Logo } from "@/components/shell/logo";
import { auth } from "@/server/auth/nextauth";

export const metadata: Metadata = { title: "Account connection" };

type Search = Promise<{ result?: string; provider?: string; account?: string; message?: string }>;

/** Where the provider's redirect lands: says in words whether the account was connected. */
export default async function AuthCompletePage({ searchParams }: { searchParams: Search }) {
  const { result, provider, account, message } = await searchParams;
  const connected = result === "connected";
  const signedIn = Boolean((await auth())?.userId);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-md text-center">
        <div className="flex justify-center">
          <Logo />
        </div>
        <div className="mt-8 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900/60">
          {connected ? (
            <CheckCircle2 aria-hidden className="mx-auto size-10 text-green-600" />
          ) : (
            <XCircle aria-hidden className="mx-auto size-10 text-red-600" />
          )}
          <h1 className="mt-4 text-xl font-semibold tracking-tight">
            {connected ? "Account connected" : "The account was not connected"}
          </h1>
          <p
            role={connected ? "status" : "alert"}
            className="mt-2 text-sm text-zinc-700 dark:text-zinc-300"
          >
            {connected
              ? `Your ${provider ?? ""} account${account ? ` (${account})` : ""} is connected. You can close this window.`
              : (message ?? "The provider did not complete the authorization.")}
          </p>
          {signedIn && (
            <Link
              href="/connected-accounts"
              className="mt-6 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-400"
            >
              Go to connected accounts
            </Link>
          )}
        </div>
      </div>
    </main>
  );
}
