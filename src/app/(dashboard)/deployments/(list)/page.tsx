import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { DeploymentsTable } from "@/components/deployments-list/deployments-table";
import { DeploymentsView, type ListFailure } from "@/components/deployments-list/deployments-view";
import { filtersFromParams, listInput } from "@/components/deployments-list/list-params";
import { tagGroups, tagOptions } from "@/components/deployments-list/tag-groups";
import { PageHeader } from "@/components/shell/page-header";
import { buttonClass } from "@/components/ui/button";
import { caller } from "@/trpc/server-calls";

export const metadata: Metadata = { title: "Deployments" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A failed read in words, and whether reading again may help (not after a 4xx). */
function listFailure(error: unknown): ListFailure {
  const status = error instanceof TRPCError ? getHTTPStatusCodeFromError(error) : 500;
  return { message: error instanceof Error ? error.message : String(error), retry: status >= 500 };
}

/**
 * The rows are rendered here, for the filters in the URL; the browser gets them as HTML and
 * only the controls as code. Live changes refresh this route (see DeploymentsView).
 */
export default async function DeploymentsPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const filters = filtersFromParams({ get: (name) => [raw[name]].flat()[0] ?? null });
  const api = await caller();
  // Read again on every live change (a route refresh): the tags in one query, beside the list.
  const [list, keys] = await Promise.all([
    api.deployments.list(listInput(filters)).then(
      (page) => ({ page, error: null }),
      (error: unknown) => ({ page: null, error: listFailure(error) }),
    ),
    api.tags.listKeysWithValues().catch(() => []),
  ]);
  const tags = tagGroups(
    keys,
    keys.map((k) => k.values),
  );
  const rows = list.page?.resources ?? [];
  return (
    <>
      <PageHeader
        title="Deployments"
        description="Every agent server in this workspace."
        actions={
          <Link href="/import" className={buttonClass()}>
            Import
          </Link>
        }
      />
      <Suspense>
        <DeploymentsView
          tags={tags}
          shown={rows.length}
          total={list.page?.total ?? 0}
          error={list.error}
        >
          <DeploymentsTable rows={rows} tagsById={tagOptions(tags).byId} />
        </DeploymentsView>
      </Suspense>
    </>
  );
}
