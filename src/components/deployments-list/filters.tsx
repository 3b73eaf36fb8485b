"use client";

import { lazy, Suspense } from "react";
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
import { statusLabels } from "./status-labels";
import { typeLabels } from "./type-labels";
import { TextFilter } from "./text-filter";
import type { TagOptions } from "./tag-groups";

type SetFilters = (patch: Partial<ListFilters>) => void;

export { typeLabels };
const statusOptions = statusChoices.map((s) => ({ value: s, label: statusLabels[s] }));
// The chips' code loads only when a filter is set (at once when the URL carries one).
const ActiveFilters = lazy(() =>
  import("./active-filters").then((m) => ({ default: m.ActiveFilters })),
);

export function Filters({
  filters,
  setFilters,
  tags,
}: {
  filters: ListFilters;
  setFilters: SetFilters;
  tags: TagOptions;
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
        <Suspense>
          <ActiveFilters filters={filters} setFilters={setFilters} tags={tags} />
        </Suspense>
      )}
    </div>
  );
}
