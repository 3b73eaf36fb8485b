"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { Deployment } from "@/schemas/deployments";
import { typeLabels } from "./filters";
import { sourceLabels } from "./source-labels";
import { RuntimeBadge, StatusBadge } from "./status-badge";
import type { TagOption } from "./use-tag-options";

// A fixed set of columns and no client-side sorting: a plain column list renders it, without a
// table library in the page's first-load JavaScript.
interface Column {
  id: string;
  header: string;
  cell: (d: Deployment) => ReactNode;
}

function subtitle(d: Deployment): string | null {
  return (
    d.source_config.repo_url ??
    d.source_revision_config.image_uri ??
    d.source_config.template_id ??
    null
  );
}

function columnsFor(tagsById: Map<string, TagOption>): Column[] {
  return [
    {
      id: "name",
      header: "Name",
      cell: (d) => (
        <div className="min-w-0">
          <Link
            href={`/deployments/${d.id}`}
            className="font-medium text-zinc-900 hover:underline focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-zinc-100"
          >
            {d.name}
          </Link>
          {subtitle(d) && (
            <p className="mt-0.5 max-w-36 truncate font-mono text-xs sm:max-w-xs text-zinc-500 dark:text-zinc-400">
              {subtitle(d)}
            </p>
          )}
        </div>
      ),
    },
    {
      id: "status",
      header: "Status",
      cell: (d) => (
        <span className="inline-flex items-center gap-1.5">
          <StatusBadge status={d.status} />
          <RuntimeBadge runtime={d.runtime} />
        </span>
      ),
    },
    { id: "type", header: "Type", cell: (d) => typeLabels[d.source_config.deployment_type] },
    { id: "source", header: "Source", cell: (d) => sourceLabels[d.source] },
    {
      id: "tags",
      header: "Tags",
      cell: (d) => (
        <div className="flex max-w-56 flex-wrap gap-1">
          {d.tag_value_ids.map((id) => {
            const tag = tagsById.get(id);
            return tag ? (
              <span
                key={id}
                className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
              >
                {tag.key}: {tag.value}
              </span>
            ) : null;
          })}
        </div>
      ),
    },
    {
      id: "updated",
      header: "Updated",
      cell: (d) => (
        <span className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
          <RelativeTime iso={d.updated_at} />
        </span>
      ),
    },
  ];
}

export function DeploymentsTable({
  rows,
  tagsById,
}: {
  rows: Deployment[];
  tagsById: Map<string, TagOption>;
}) {
  const columns = columnsFor(tagsById);
  return (
    <Table aria-label="Deployments">
      <thead>
        <tr>
          {columns.map((column) => (
            <Th key={column.id}>{column.header}</Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <Tr key={d.id}>
            {columns.map((column) => (
              <Td key={column.id}>{column.cell(d)}</Td>
            ))}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
