"use client";

import { useQuery } from "@tanstack/react-query";
import { plainReason } from "@/lib/runtime-words";
import type { HealthInput } from "@/schemas/deployment-status";
import { useTRPC } from "@/trpc/react";

/**
 * What the cluster last said of a deployment's active revision, with its reason in plain words:
 * the overview badge's health (one query, shared with Running; the list reads its rows' at once).
 */
export function useRuntimeHealth(deploymentId: string, enabled: boolean): HealthInput | null {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.runtime.state.queryOptions({ deploymentId }), enabled });
  if (!enabled || !data?.running) return null;
  return { healthy: data.healthy, reason: plainReason(data) };
}
