import { FolderGit2Icon, type IconComponent } from "@/components/ui/icons";
import {
  ActivityIcon,
  BoxesIcon,
  KeyRoundIcon,
  Link2Icon,
  PlusIcon,
  SettingsIcon,
} from "./header-icons";

export interface NavItem {
  href: string;
  label: string;
  icon: IconComponent;
}

/** The dashboard's sections; later pages (Import, OAuth providers, Settings) add an entry here. */
export const navItems: NavItem[] = [
  { href: "/deployments", label: "Deployments", icon: BoxesIcon },
  { href: "/new", label: "New deployment", icon: PlusIcon },
  { href: "/import", label: "Import", icon: FolderGit2Icon },
  { href: "/tracing", label: "Tracing", icon: ActivityIcon },
  { href: "/providers", label: "OAuth providers", icon: KeyRoundIcon },
  { href: "/connected-accounts", label: "Connected accounts", icon: Link2Icon },
  { href: "/settings", label: "Settings", icon: SettingsIcon },
];
