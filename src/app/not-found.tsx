import type { Metadata } from "next";
import Link from "next/link";
import { Logo } from "@/components/shell/logo";
import { buttonClass } from "@/components/ui/button";
import { SearchXIcon } from "@/components/ui/icons";

export const metadata: Metadata = { title: "Page not found" };

/** Any address the app does not serve (and notFound() outside the dashboard). */
export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12 text-center">
      <Link
        href="/deployments"
        aria-label="Hangar"
        className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <Logo />
      </Link>
      <div className="mt-8 rounded-full bg-zinc-100 p-3 dark:bg-zinc-800">
        <SearchXIcon aria-hidden className="size-6 text-zinc-500 dark:text-zinc-400" />
      </div>
      <p className="mt-4 text-sm font-medium text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="mt-2 max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
        Nothing lives at this address. It may have moved, or the link is mistyped.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link href="/deployments" className={buttonClass("primary")}>
          Go to deployments
        </Link>
        <a href="/openapi.json" className={buttonClass("secondary")}>
          API reference
        </a>
      </div>
    </main>
  );
}
