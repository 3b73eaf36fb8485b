import Link from "next/link";
import type { ReactNode } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import type { DeploymentRow as Deployment } from "@/schemas/deployment-list-view";
import type { DeploymentSort } from "@/schemas/deployment-sort";
import { typeLabels } from "./type-labels";
import { sourceLabels } from "./source-labels";
import { SortHeader } from "./sort-header";
import { ListStatus } from "./status-badge";
import type { TagOption } from "./tag-groups";

// Rendered on the server for the filters in the URL (the rows ship as HTML, not as code): a
// fixed set of columns sorted on the server, their headers the only client part.

interface Column {
  id: string;
  header: string;
  /** Sortable columns name their key; the server sorts. */
  sort?: DeploymentSort["by"];
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
      sort: "name",
      cell: (d) => (
        <div className="min-w-0">
          <Link
            href={`/deployments/${d.id}`}
            className="font-medium text-zinc-900 hover:underline focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-zinc-100"
          >
            {d.name}
          </Link>
          {d.preview && (
            <span className="ml-2 rounded-full bg-violet-100 px-2 py-0.5 text-xs text-violet-800 dark:bg-violet-500/15 dark:text-violet-300">
              Preview · PR #{d.preview.pr_number}
            </span>
          )}
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
      sort: "status",
      cell: (d) => <ListStatus deployment={d} />,
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
      id: "created",
      header: "Created",
      sort: "created",
      cell: (d) => (
        <span className="whitespace-nowrap text-zinc-600 dark:text-zinc-400">
          <RelativeTime iso={d.created_at} />
        </span>
      ),
    },
    {
      id: "updated",
      header: "Updated",
      sort: "updated",
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
          {columns.map((column) =>
            column.sort ? (
              <SortHeader key={column.id} by={column.sort} header={column.header} />
            ) : (
              <Th key={column.id}>{column.header}</Th>
            ),
          )}
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
