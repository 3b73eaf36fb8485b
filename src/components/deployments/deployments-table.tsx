"use client";

import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import Link from "next/link";
import { useMemo } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { Deployment } from "@/schemas/deployments";
import { typeLabels } from "./filters";
import { sourceLabels } from "./source-labels";
import { StatusBadge } from "./status-badge";
import type { TagOption } from "./use-tag-options";

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Deployment>();

function subtitle(d: Deployment): string | null {
  return (
    d.source_config.repo_url ??
    d.source_revision_config.image_uri ??
    d.source_config.template_id ??
    null
  );
}

function columnsFor(tagsById: Map<string, TagOption>) {
  return helper.columns([
    helper.accessor("name", {
      header: "Name",
      cell: ({ row }) => (
        <div className="min-w-0">
          <Link
            href={`/deployments/${row.original.id}`}
            className="font-medium text-zinc-900 hover:underline focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-zinc-100"
          >
            {row.original.name}
          </Link>
          {subtitle(row.original) && (
            <p className="mt-0.5 max-w-xs truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">
              {subtitle(row.original)}
            </p>
          )}
        </div>
      ),
    }),
    helper.accessor("status", {
      header: "Status",
      cell: ({ getValue }) => <StatusBadge status={getValue()} />,
    }),
    helper.accessor((d) => d.source_config.deployment_type, {
      id: "type",
      header: "Type",
      cell: ({ getValue }) => typeLabels[getValue()],
    }),
    helper.accessor("source", {
      header: "Source",
      cell: ({ getValue }) => sourceLabels[getValue()],
    }),
    helper.accessor("tag_value_ids", {
      header: "Tags",
      cell: ({ getValue }) => (
        <div className="flex max-w-56 flex-wrap gap-1">
          {getValue().map((id) => {
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
    }),
    helper.accessor("updated_at", {
      header: "Updated",
      cell: ({ getValue }) => (
        <span className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
          <RelativeTime iso={getValue()} />
        </span>
      ),
    }),
  ]);
}

export function DeploymentsTable({
  rows,
  tagsById,
}: {
  rows: Deployment[];
  tagsById: Map<string, TagOption>;
}) {
  // Stable columns (a table v9 rule): rebuilt only when the set of known tags changes.
  const tagSignature = [...tagsById.values()].map((t) => `${t.id}=${t.key}:${t.value}`).join();
  const columns = useMemo(() => columnsFor(tagsById), [tagSignature]); // eslint-disable-line react-hooks/exhaustive-deps
  const table = useTable({ features, columns, data: rows, getRowId: (d) => d.id });
  return (
    <Table aria-label="Deployments">
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <Th key={header.id}>
                {header.isPlaceholder ? null : <table.FlexRender header={header} />}
              </Th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <Tr key={row.id}>
            {row.getAllCells().map((cell) => (
              <Td key={cell.id}>
                <table.FlexRender cell={cell} />
              </Td>
            ))}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
