import type { ReactNode } from "react";
import { TRPCReactProvider } from "./react";

/** The layout of a route segment whose pages read through tRPC (see TRPCReactProvider). */
export function DataLayout({ children }: { children: ReactNode }) {
  return <TRPCReactProvider>{children}</TRPCReactProvider>;
}
