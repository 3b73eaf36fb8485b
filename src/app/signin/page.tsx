import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/signin-form";
import { SsoButton } from "@/components/auth/sso-button";
import { Logo } from "@/components/shell/logo";
import { auth } from "@/server/auth/nextauth";
import { oidcEnabled } from "@/server/auth/oidc";

export const metadata: Metadata = { title: "Sign in" };

const ssoErrors: Record<string, string> = {
  AccessDenied: "Your SSO account is not linked to a Hangar user. Ask an admin to invite you.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string }>;
}) {
  if ((await auth())?.userId) redirect("/deployments");
  const { error } = await searchParams;
  const sso = oidcEnabled();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="flex flex-col items-center text-center">
          <Logo />
          <h1 className="mt-6 text-2xl font-semibold tracking-tight">Sign in to Hangar</h1>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            The control plane for your agent deployments.
          </p>
        </div>
        <div className="mt-8 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900/60">
          {error && ssoErrors[error] && (
            <p
              role="alert"
              className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-300"
            >
              {ssoErrors[error]}
            </p>
          )}
          <SignInForm />
          {sso && <SsoButton />}
        </div>
        <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
          Automating something?{" "}
          <a
            href="/openapi.json"
            className="font-medium text-zinc-900 underline-offset-4 hover:underline dark:text-zinc-100"
          >
            API reference
          </a>
        </p>
      </div>
    </main>
  );
}
