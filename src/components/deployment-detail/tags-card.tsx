"use client";

import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { IdChip } from "@/components/ui/id-chip";
import { useTagOptions } from "@/components/deployments-list/use-tag-options";

export function TagsCard({ tagValueIds }: { tagValueIds: string[] }) {
  const { byId } = useTagOptions();
  return (
    <Card>
      <CardHeader title="Tags" />
      <CardBody>
        {tagValueIds.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No tags.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Tags">
            {tagValueIds.map((id) => {
              const tag = byId.get(id);
              return (
                <li
                  key={id}
                  className="rounded-md border border-zinc-200 px-2 py-1 text-sm dark:border-zinc-700"
                >
                  {tag ? (
                    <>
                      <span className="text-zinc-500 dark:text-zinc-400">{tag.key}:</span>{" "}
                      {tag.value}
                    </>
                  ) : (
                    <IdChip id={id} label="tag value" href="/settings/tags" />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
