import type { Metadata } from "next";
import type { ReactNode } from "react";
import { themeScript } from "@/components/shell/theme-script";
import { LazyToaster } from "@/components/ui/toast";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Hangar", template: "%s · Hangar" },
  description: "The control plane for platforms that host agent servers",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The theme script sets the class before paint; the server cannot know it, hence the opt-out.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {children}
        <LazyToaster closeButton position="bottom-right" theme="system" />
      </body>
    </html>
  );
}
