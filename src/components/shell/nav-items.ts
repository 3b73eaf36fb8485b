import { Boxes, type LucideIcon } from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

/** The dashboard's sections; later pages (Import, OAuth providers, Settings) add an entry here. */
export const navItems: NavItem[] = [{ href: "/deployments", label: "Deployments", icon: Boxes }];
