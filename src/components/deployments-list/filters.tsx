"use client";

import { XIcon } from "@/components/ui/icons";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { deploymentTypes } from "@/schemas/deployment-values";
import { CheckPopover } from "./check-popover";
import {
  hasFilters,
  statusChoices,
  type DeploymentType,
  type ListFilters,
  type StatusChoice,
} from "./list-params";
import { statusLabels } from "./status-badge";
import { typeLabels } from "./type-labels";
import { TextFilter } from "./text-filter";
import type { useTagOptions } from "./use-tag-options";

type SetFilters = (patch: Partial<ListFilters>) => void;

export { typeLabels };
const statusOptions = statusChoices.map((s) => ({ value: s, label: statusLabels[s] }));

export function Filters({
  filters,
  setFilters,
  tags,
}: {
  filters: ListFilters;
  setFilters: SetFilters;
  tags: ReturnType<typeof useTagOptions>;
}) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <TextFilter
          id="filter-name"
          label="Search by name"
          placeholder="Search deployments…"
          icon
          className="min-w-56 flex-1"
          value={filters.name_contains}
          onChange={(name_contains) => setFilters({ name_contains })}
        />
        <CheckPopover
          label="Status"
          groups={[{ options: statusOptions }]}
          selected={filters.status}
          onChange={(status) => setFilters({ status: status as StatusChoice[] })}
          empty="No statuses"
        />
        <CheckPopover
          label="Tags"
          groups={tags.groups.map((g) => ({
            label: g.key,
            options: g.options.map((o) => ({ value: o.id, label: o.value })),
          }))}
          selected={filters.tag_value_ids}
          onChange={(tag_value_ids) => setFilters({ tag_value_ids })}
          empty="This workspace has no tags yet."
        />
        <label htmlFor="filter-type" className="sr-only">
          Deployment type
        </label>
        <Select
          id="filter-type"

          value={filters.deployment_type ?? ""}
          onChange={(e) =>
            setFilters({ deployment_type: (e.target.value || null) as DeploymentType | null })
          }
        >
          <option value="">All types</option>
          {deploymentTypes.map((t) => (
            <option key={t} value={t}>
              {typeLabels[t]}
            </option>
          ))}
        </Select>
        <label htmlFor="filter-remote" className="sr-only">
          Remote reconciled
        </label>
        <Select
          id="filter-remote"

          value={filters.remote_reconciled ?? ""}
          onChange={(e) =>
            setFilters({
              remote_reconciled: (e.target.value || null) as ListFilters["remote_reconciled"],
            })
          }
        >
          <option value="">Any reconciler</option>
          <option value="true">Remote reconciled</option>
          <option value="false">Hangar reconciled</option>
        </Select>
        <label htmlFor="filter-previews" className="sr-only">
          Previews
        </label>
        <Select
          id="filter-previews"
          value={filters.previews ?? ""}
          onChange={(e) =>
            setFilters({ previews: (e.target.value || null) as ListFilters["previews"] })
          }
        >
          <option value="">With previews</option>
          <option value="exclude">Hide previews</option>
          <option value="only">Only previews</option>
        </Select>
        <TextFilter
          id="filter-image"
          label="Image version"
          placeholder="Image version"
          className="w-40"
          value={filters.image_version}
          onChange={(image_version) => setFilters({ image_version })}
        />
      </div>
      {hasFilters(filters) && (
        <ActiveFilters filters={filters} setFilters={setFilters} tags={tags} />
      )}
    </div>
  );
}

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

function ActiveFilters({
  filters: f,
  setFilters,
  tags,
}: {
  filters: ListFilters;
  setFilters: SetFilters;
  tags: ReturnType<typeof useTagOptions>;
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
      <Button
        variant="ghost"
        size="sm"
        onClick={() =>
          setFilters({
            name_contains: "",
            status: [],
            tag_value_ids: [],
            deployment_type: null,
            remote_reconciled: null,
            previews: null,
            image_version: "",
          })
        }
      >
        Clear filters
      </Button>
    </div>
  );
}
