"use client";

import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from "@/components/ui/icons";
import { Th } from "@/components/ui/table";
import { DEFAULT_SORT, defaultSortDir, type DeploymentSort } from "@/schemas/deployment-sort";
import { useListFiltersContext } from "./use-list-filters";

/** A sortable column's header: the server sorts; the URL holds the sort. */
export function SortHeader({ by, header }: { by: DeploymentSort["by"]; header: string }) {
  const { filters, setFilters } = useListFiltersContext();
  const sort = filters.sort ?? DEFAULT_SORT;
  const current = sort.by === by ? sort.dir : null;
  const Icon =
    current === "asc" ? ArrowUpIcon : current === "desc" ? ArrowDownIcon : ArrowUpDownIcon;
  const next = current ? (current === "asc" ? "desc" : "asc") : defaultSortDir(by);
  return (
    <Th aria-sort={current ? (current === "asc" ? "ascending" : "descending") : "none"}>
      <button
        type="button"
        onClick={() => setFilters({ sort: { by, dir: next } })}
        aria-label={`Sort by ${header.toLowerCase()}`}
        className="-mx-1 inline-flex items-center gap-1 rounded-sm px-1 tracking-wide uppercase hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-zinc-100"
      >
        {header}
        <Icon aria-hidden className={current ? "size-3.5" : "size-3.5 opacity-50"} />
      </button>
    </Th>
  );
}
