import Link from "next/link";
import { PaletteButton } from "@/components/palette/palette-button";
import { SearchIcon } from "@/components/ui/icons";
import type { SessionMe } from "@/schemas/session";
import { MonitorIcon, MoonIcon, SunIcon } from "./header-icons";
import { Logo } from "./logo";
import { MobileNav } from "./mobile-nav";
import { Nav, NavList } from "./nav";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";
import { WorkspaceSwitcher } from "./workspace-switcher";

const themeFaces = {
  light: <SunIcon aria-hidden className="size-3.5" />,
  dark: <MoonIcon aria-hidden className="size-3.5" />,
  system: <MonitorIcon aria-hidden className="size-3.5" />,
};

export function Header({ me }: { me: SessionMe }) {
  return (
    <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/85 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/85">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
        <Link
          href="/deployments"
          aria-label="Hangar"
          className="shrink-0 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <Logo withName />
        </Link>
        <span aria-hidden className="text-zinc-300 dark:text-zinc-700">
          /
        </span>
        <div className="flex min-w-0 flex-1 items-center">
          <WorkspaceSwitcher me={me} />
        </div>
        <div className="flex shrink-0 items-center gap-2 sm:gap-3">
          <PaletteButton>
            <SearchIcon aria-hidden className="size-4" />
            <span className="sr-only sm:not-sr-only">Search</span>
            <kbd
              aria-hidden
              className="hidden font-sans text-xs text-zinc-500 lg:inline dark:text-zinc-400"
            >
              Ctrl K
            </kbd>
          </PaletteButton>
          {/* On a phone the theme moves into the menu: the workspace's name needs the room. */}
          <div className="hidden sm:block">
            <ThemeToggle faces={themeFaces} />
          </div>
          <UserMenu email={me.user.email} name={me.user.name} role={me.role} />
          <MobileNav>
            <NavList />
            <div className="flex items-center justify-between border-t border-zinc-200 px-4 py-3 text-sm font-medium sm:hidden dark:border-zinc-800">
              Theme
              <ThemeToggle faces={themeFaces} />
            </div>
          </MobileNav>
        </div>
      </div>
      <div className="mx-auto max-w-6xl px-2 sm:px-4">
        <Nav />
      </div>
    </header>
  );
}

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:outline-2 focus:outline-blue-600 dark:bg-zinc-900"
    >
      Skip to content
    </a>
  );
}

export function Footer() {
  return (
    <footer className="mx-auto flex max-w-6xl items-center justify-between px-4 py-8 text-xs text-zinc-500 sm:px-6 dark:text-zinc-400">
      <span>Hangar</span>
      <a
        href="/openapi.json"
        className="hover:text-zinc-900 hover:underline dark:hover:text-zinc-100"
      >
        API reference
      </a>
    </footer>
  );
}
