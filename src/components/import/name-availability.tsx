"use client";

import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, Loader2, XCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { DEPLOYMENT_NAME } from "@/schemas/deployments";
import { useTRPC } from "@/trpc/react";

/** Asks the server, 300 ms after typing stops, whether the name is free; null while unknown. */
export function useNameAvailability(name: string): {
  checking: boolean;
  available: boolean | null;
} {
  const trpc = useTRPC();
  const [debounced, setDebounced] = useState(name);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(name), 300);
    return () => clearTimeout(timer);
  }, [name]);
  const valid = DEPLOYMENT_NAME.test(debounced);
  const check = useQuery({
    ...trpc.deployments.nameAvailable.queryOptions({ name: debounced }),
    enabled: valid,
    staleTime: 5_000,
  });
  if (!DEPLOYMENT_NAME.test(name)) return { checking: false, available: null };
  if (debounced !== name || check.isFetching) return { checking: true, available: null };
  return { checking: false, available: check.data?.available ?? null };
}

export function NameAvailability({
  name,
  state,
}: {
  name: string;
  state: { checking: boolean; available: boolean | null };
}) {
  return (
    <p id="deployment-name-status" aria-live="polite" className="flex items-center gap-1.5 text-xs">
      {state.checking && (
        <>
          <Loader2 aria-hidden className="size-3.5 animate-spin text-zinc-400" />
          <span className="text-zinc-500 dark:text-zinc-400">Checking availability…</span>
        </>
      )}
      {state.available === true && (
        <>
          <CheckCircle2 aria-hidden className="size-3.5 text-emerald-600 dark:text-emerald-400" />
          <span className="text-emerald-700 dark:text-emerald-400">{name} is available</span>
        </>
      )}
      {state.available === false && (
        <>
          <XCircle aria-hidden className="size-3.5 text-red-600 dark:text-red-400" />
          <span className="text-red-600 dark:text-red-400">{name} is taken in this workspace</span>
        </>
      )}
    </p>
  );
}
