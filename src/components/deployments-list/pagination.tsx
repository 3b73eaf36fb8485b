"use client";

import { ChevronLeftIcon, ChevronRightIcon } from "@/components/ui/icons";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { PAGE_SIZES, type ListFilters } from "./list-params";

export function Pagination({
  filters,
  shown,
  total,
  live,
  hasNext,
  setFilters,
}: {
  filters: ListFilters;
  shown: number;
  /** How many deployments match the filters, across pages. */
  total: number;
  /** Changes arrive by themselves (the server's event stream is connected). */
  live: boolean;
  hasNext: boolean;
  setFilters: (patch: Partial<ListFilters>) => void;
}) {
  const { offset, limit } = filters;
  const sizes = PAGE_SIZES.includes(limit as (typeof PAGE_SIZES)[number])
    ? PAGE_SIZES
    : [...PAGE_SIZES, limit].sort((a, b) => a - b);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-wrap items-center justify-between gap-3 text-sm text-zinc-600 dark:text-zinc-400"
    >
      <p className="flex items-center gap-3">
        <span aria-live="polite">
          {shown === 0
            ? "No rows"
            : `Showing ${offset + 1}–${offset + shown} of ${total} ${total === 1 ? "deployment" : "deployments"}`}
        </span>
        {live && (
          <span className="inline-flex items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400">
            <span aria-hidden className="size-1.5 rounded-full bg-emerald-500" />
            Updating live
          </span>
        )}
      </p>
      {/* Two groups that wrap as wholes on a phone: never the label across lines. */}
      <div className="flex flex-wrap items-center gap-2">
        <span className="flex items-center gap-2 whitespace-nowrap">
          <label htmlFor="page-size">Rows per page</label>
          <Select
            id="page-size"
            value={limit}
            onChange={(e) => setFilters({ limit: Number(e.target.value) })}
          >
            {sizes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </span>
        <span className="flex items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={offset === 0}
            onClick={() => setFilters({ offset: Math.max(0, offset - limit) })}
          >
            <ChevronLeftIcon aria-hidden className="size-4" />
            Previous
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!hasNext}
            onClick={() => setFilters({ offset: offset + limit })}
          >
            Next
            <ChevronRightIcon aria-hidden className="size-4" />
          </Button>
        </span>
      </div>
    </nav>
  );
}
