import type { ReactNode } from "react";
import { PageHeader } from "@/components/shell/page-header";
import { TabNav } from "@/components/ui/tabs";
import { TRPCReactProvider } from "@/trpc/react";

const tabs = [
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/members", label: "Members" },
  { href: "/settings/integrations", label: "Code-host integrations" },
  { href: "/settings/audit", label: "Audit log" },
  { href: "/settings/sessions", label: "Sessions" },
  { href: "/settings/listeners", label: "Listeners" },
  { href: "/settings/tags", label: "Tags" },
  { href: "/settings/account", label: "Account" },
];

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Access to this workspace and what happened in it."
      />
      <TabNav label="Settings sections" tabs={tabs} />
      <TRPCReactProvider>{children}</TRPCReactProvider>
    </>
  );
}
