"use client";

import clsx from "clsx";
import Link from "next/link";
import { usePathname } from "next/navigation";

export interface TabLink {
  href: string;
  label: string;
}

/** Sub-pages shown as tabs: each is a link (its own URL), the current one marked aria-current. */
export function TabNav({ label, tabs }: { label: string; tabs: TabLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="mb-6 border-b border-zinc-200 dark:border-zinc-800">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {tabs.map(({ href, label: text }) => {
          const current = pathname === href || pathname.startsWith(`${href}/`);
          return (
            <li key={href}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={clsx(
                  "inline-block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap",
                  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600",
                  current
                    ? "border-blue-600 text-zinc-900 dark:border-blue-400 dark:text-zinc-100"
                    : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
                )}
              >
                {text}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
