"use client";

import { ThemeProvider } from "next-themes";
import type { ReactNode } from "react";
import { LazyToaster } from "@/components/ui/toast";
import { TRPCReactProvider } from "@/trpc/react";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      <TRPCReactProvider>
        {children}
        <LazyToaster closeButton position="bottom-right" theme="system" />
      </TRPCReactProvider>
    </ThemeProvider>
  );
}
