"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { tagGroups, tagOptions, type TagOptions } from "./tag-groups";

/** The workspace's tag values grouped by key, and a lookup by value id. */
export function useTagOptions(): TagOptions {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.tags.listKeys.queryOptions()).data ?? [];
  const valuesOf = (tagKeyId: string) => trpc.tags.listValues.queryOptions({ tagKeyId });
  // One query over the keys' value lists, each still cached (and prefetched) on its own:
  // useQueries would add its own observer code to every page's first load.
  const values = useQuery({
    queryKey: [...trpc.tags.listValues.pathKey(), keys.map((k) => k.id)],
    queryFn: () => Promise.all(keys.map((k) => queryClient.fetchQuery(valuesOf(k.id)))),
    initialData: () => {
      const cached = keys.map((k) => queryClient.getQueryData(valuesOf(k.id).queryKey));
      return cached.every((list) => list !== undefined) ? cached : undefined;
    },
    // Reads the per-key caches, which keep their own freshness.
    staleTime: 0,
  }).data;
  return tagOptions(tagGroups(keys, values ?? []));
}
