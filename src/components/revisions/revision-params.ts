import { revisionStatuses } from "@/schemas/deployment-values";
import type { RevisionStatus } from "@/schemas/revisions";

// The revisions list's filter and page live in the URL: one parser for the server page and the view.

export const REVISIONS_PAGE_SIZE = 20;

export interface RevisionFilters {
  status: RevisionStatus | null;
  offset: number;
}

type ParamSource = { get(name: string): string | null };

/** Unknown values in a hand-edited URL are dropped rather than failing the page. */
export function revisionFilters(params: ParamSource): RevisionFilters {
  const status = params.get("status");
  const offset = params.get("offset");
  return {
    status: revisionStatuses.includes(status as RevisionStatus) ? (status as RevisionStatus) : null,
    offset: offset && /^\d+$/.test(offset) ? Number(offset) : 0,
  };
}

export const revisionListInput = (deploymentId: string, filters: RevisionFilters) => ({
  deploymentId,
  limit: String(REVISIONS_PAGE_SIZE),
  offset: String(filters.offset),
  ...(filters.status ? { status: filters.status } : {}),
});

export function revisionSearch(filters: RevisionFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.offset) params.set("offset", String(filters.offset));
  const query = params.toString();
  return query ? `?${query}` : "";
}
