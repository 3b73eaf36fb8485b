import { navItems } from "./nav-items";
import { NavLink } from "./nav-link";

const focus =
  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600";
const tab = `inline-flex items-center gap-2 rounded-t-md border-b-2 border-transparent px-3 py-2.5 text-sm font-medium whitespace-nowrap text-zinc-600 transition-colors hover:text-zinc-900 aria-[current=page]:border-zinc-900 aria-[current=page]:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100 dark:aria-[current=page]:border-zinc-100 dark:aria-[current=page]:text-zinc-100 ${focus}`;
const menuItem = `flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-zinc-700 hover:bg-zinc-50 aria-[current=page]:bg-zinc-100 aria-[current=page]:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-900 dark:aria-[current=page]:bg-zinc-800 dark:aria-[current=page]:text-zinc-100 ${focus}`;

/** The sections as tabs under the header, from the md breakpoint up (MobileNav below it). */
export function Nav() {
  return (
    <nav aria-label="Main" className="-mb-px hidden gap-1 md:flex">
      {navItems.map(({ href, label, icon: Icon }) => (
        <NavLink key={href} href={href} className={tab}>
          <Icon aria-hidden className="size-4" />
          {label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The same sections as a list, for MobileNav's panel. */
export function NavList() {
  return (
    <ul className="space-y-1 p-2">
      {navItems.map(({ href, label, icon: Icon }) => (
        <li key={href}>
          <NavLink href={href} className={menuItem}>
            <Icon aria-hidden className="size-4" />
            {label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
