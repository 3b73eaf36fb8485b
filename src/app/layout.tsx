import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Hangar", template: "%s · Hangar" },
  description: "The control plane for platforms that host agent servers",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // next-themes sets the class before paint; the server cannot know it, hence the warning opt-out.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
