import type { ReactNode } from "react";
import { TRPCReactProvider } from "@/trpc/react";
import { loadDeployment } from "./load";

/**
 * Finds the deployment before anything streams (this layout sits outside the pages' loading
 * boundary, and the list's loading page lives in its own group), so an unknown deployment
 * answers HTTP 404 with not-found.tsx instead of a 200 page that says so.
 */
export default async function DeploymentLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  await loadDeployment((await params).id);
  return <TRPCReactProvider>{children}</TRPCReactProvider>;
}
