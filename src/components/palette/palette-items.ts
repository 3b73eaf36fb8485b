import { navItems } from "@/components/shell/nav-items";

/** One destination the palette offers: a page, or a deployment found by name. */
export interface PaletteItem {
  id: string;
  label: string;
  group: "Pages" | "Deployments";
  href: string;
}

const settingsPages: [string, string][] = [
  ["/settings/api-keys", "Settings: API keys"],
  ["/settings/members", "Settings: Members"],
  ["/settings/integrations", "Settings: Code-host integrations"],
  ["/settings/audit", "Settings: Audit log"],
  ["/settings/sessions", "Settings: Sessions"],
  ["/settings/tags", "Settings: Tags"],
  ["/settings/account", "Settings: Account"],
];

export const pageItems: PaletteItem[] = [
  ...navItems.map(({ href, label }) => ({ href, label })),
  ...settingsPages.map(([href, label]) => ({ href, label })),
].map(({ href, label }) => ({ id: `page:${href}`, label, group: "Pages", href }));

/** Pages whose name holds every word of the query, in the order listed. */
export function matchPages(query: string): PaletteItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return pageItems.filter((p) => words.every((w) => p.label.toLowerCase().includes(w)));
}
