"use client";

import clsx from "clsx";
import Link from "next/link";
import { usePathname } from "next/navigation";

const tabs = [
  { label: "Overview", path: "" },
  { label: "Settings", path: "/settings" },
  { label: "Secrets", path: "/secrets" },
  { label: "Tags", path: "/tags" },
  { label: "Revisions", path: "/revisions" },
  { label: "Logs", path: "/logs" },
  { label: "Traces", path: "/traces" },
  { label: "Connections", path: "/connections" },
] as const;

/** Each tab is its own URL, so a tab can be linked to and reloaded. */
export function DeploymentTabs({ id }: { id: string }) {
  const pathname = usePathname();
  const base = `/deployments/${id}`;
  const current = tabs.slice(1).find((t) => pathname.startsWith(base + t.path)) ?? tabs[0];
  return (
    <nav aria-label="Deployment sections" className="border-b border-zinc-200 dark:border-zinc-800">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {tabs.map((tab) => {
          const active = tab === current;
          return (
            <li key={tab.label}>
              <Link
                href={base + tab.path}
                aria-current={active ? "page" : undefined}
                className={clsx(
                  "inline-block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-600",
                  active
                    ? "border-zinc-900 text-zinc-900 dark:border-zinc-100 dark:text-zinc-100"
                    : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900 dark:text-zinc-400 dark:hover:border-zinc-700 dark:hover:text-zinc-100",
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
