import { Boxes, FolderGit2, KeyRound, Link2, Plus, Settings, type LucideIcon } from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

/** The dashboard's sections; later pages (Import, OAuth providers, Settings) add an entry here. */
export const navItems: NavItem[] = [
  { href: "/deployments", label: "Deployments", icon: Boxes },
  { href: "/new", label: "New deployment", icon: Plus },
  { href: "/import", label: "Import", icon: FolderGit2 },
  { href: "/providers", label: "OAuth providers", icon: KeyRound },
  { href: "/connected-accounts", label: "Connected accounts", icon: Link2 },
  { href: "/settings", label: "Settings", icon: Settings },
];
