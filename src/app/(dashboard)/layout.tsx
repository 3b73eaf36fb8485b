import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Footer, Header, SkipLink } from "@/components/shell/header";
import { DryRunBanner } from "@/components/shell/dry-run-banner";
import { NoWorkspace } from "@/components/shell/no-workspace";
import { auth } from "@/server/auth/nextauth";
import { serverBuilder, serverRuntime } from "@/server/services/service-info";
import { loadMe } from "@/trpc/session";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.userId) redirect("/signin");
  const me = await loadMe();
  if (!me) return <NoWorkspace />;
  if (me.user.must_change_password) redirect("/change-password");
  return (
    <>
      <SkipLink />
      <Header me={me} />
      <DryRunBanner runtime={serverRuntime()} builder={serverBuilder()} />
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-8 outline-none sm:px-6">
        {children}
      </main>
      <Footer />
    </>
  );
}
