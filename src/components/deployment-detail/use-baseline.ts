"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { useDeployment } from "./use-deployment";

/**
 * The deployment as it was when an editor opened: its ETag guards the save, so a change made
 * meanwhile (another tab, another user) is a 412 rather than silently overwritten. Polling may
 * refresh the live query; the baseline moves only on save or reload.
 */
export function useBaseline(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [baseline, setBaseline] = useState(useDeployment(id));
  const reload = async () => {
    setBaseline(
      await queryClient.fetchQuery({ ...trpc.deployments.get.queryOptions({ id }), staleTime: 0 }),
    );
  };
  return { baseline, setBaseline, reload };
}
