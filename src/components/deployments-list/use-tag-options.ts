"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

export interface TagOption {
  id: string;
  key: string;
  value: string;
}

/** The workspace's tag values grouped by key, and a lookup by value id. */
export function useTagOptions() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.tags.listKeys.queryOptions()).data ?? [];
  const values = useQueries({
    queries: keys.map((k) => trpc.tags.listValues.queryOptions({ tagKeyId: k.id })),
  });
  const groups = keys.map((k, i) => ({
    key: k.key,
    options: (values[i]?.data ?? []).map((v): TagOption => ({
      id: v.id,
      key: k.key,
      value: v.value,
    })),
  }));
  const byId = new Map(groups.flatMap((g) => g.options.map((o) => [o.id, o] as const)));
  return { groups, byId };
}
