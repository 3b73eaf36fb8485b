"use client";

import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FolderGit2Icon, SearchXIcon } from "@/components/ui/icons";

/** No rows: an empty workspace invites an import; otherwise the filters or the page missed. */
export function EmptyList({
  filtered,
  firstPage,
  onReset,
}: {
  filtered: boolean;
  firstPage: boolean;
  /** Clears the filters (or goes back to the first page). */
  onReset: () => void;
}) {
  if (!filtered && firstPage)
    return (
      <EmptyState
        icon={FolderGit2Icon}
        title="No deployments yet"
        description="Import a repository to create your first deployment. Each change cuts a revision that Hangar deploys to the configured cluster."
        action={
          <Link href="/import" className={buttonClass()}>
            Import a repository
          </Link>
        }
      />
    );
  return (
    <EmptyState
      icon={SearchXIcon}
      title={filtered ? "No deployments match these filters" : "No deployments on this page"}
      description={
        filtered ? "Try a different search or remove a filter." : "Go back to the first page."
      }
      action={
        <Button variant="secondary" onClick={onReset}>
          {filtered ? "Clear filters" : "First page"}
        </Button>
      }
    />
  );
}
