"use client";

import type { ReactNode } from "react";
import { LazyToaster } from "@/components/ui/toast";
import { TRPCReactProvider } from "@/trpc/react";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <TRPCReactProvider>
      {children}
      <LazyToaster closeButton position="bottom-right" theme="system" />
    </TRPCReactProvider>
  );
}
