"use client";

import { XIcon } from "@/components/ui/icons";
import { Button } from "@/components/ui/button";
import { noFilters, type ListFilters } from "./list-params";
import { statusLabels } from "./status-labels";
import { typeLabels } from "./type-labels";
import type { TagOptions } from "./tag-groups";

function Chip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-zinc-200 bg-white py-0.5 pr-1 pl-2.5 text-xs dark:border-zinc-700 dark:bg-zinc-900">
      {label}
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove filter ${label}`}
        className="rounded-full p-0.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        <XIcon aria-hidden className="size-3" />
      </button>
    </span>
  );
}

/** The filters in force as chips, each removable, and a button clearing them all. */
export function ActiveFilters({
  filters: f,
  setFilters,
  tags,
}: {
  filters: ListFilters;
  setFilters: (patch: Partial<ListFilters>) => void;
  tags: TagOptions;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2" aria-label="Active filters" role="group">
      {f.name_contains && (
        <Chip
          label={`Name contains “${f.name_contains}”`}
          onRemove={() => setFilters({ name_contains: "" })}
        />
      )}
      {f.status.map((s) => (
        <Chip
          key={s}
          label={`Status: ${statusLabels[s]}`}
          onRemove={() => setFilters({ status: f.status.filter((x) => x !== s) })}
        />
      ))}
      {f.tag_value_ids.map((id) => {
        const tag = tags.byId.get(id);
        return (
          <Chip
            key={id}
            label={tag ? `${tag.key}: ${tag.value}` : "Tag"}
            onRemove={() => setFilters({ tag_value_ids: f.tag_value_ids.filter((x) => x !== id) })}
          />
        );
      })}
      {f.deployment_type && (
        <Chip
          label={`Type: ${typeLabels[f.deployment_type]}`}
          onRemove={() => setFilters({ deployment_type: null })}
        />
      )}
      {f.remote_reconciled && (
        <Chip
          label={f.remote_reconciled === "true" ? "Remote reconciled" : "Hangar reconciled"}
          onRemove={() => setFilters({ remote_reconciled: null })}
        />
      )}
      {f.previews && (
        <Chip
          label={f.previews === "exclude" ? "Previews hidden" : "Only previews"}
          onRemove={() => setFilters({ previews: null })}
        />
      )}
      {f.image_version && (
        <Chip
          label={`Image ${f.image_version}`}
          onRemove={() => setFilters({ image_version: "" })}
        />
      )}
      <Button variant="ghost" size="sm" onClick={() => setFilters(noFilters)}>
        Clear filters
      </Button>
    </div>
  );
}
