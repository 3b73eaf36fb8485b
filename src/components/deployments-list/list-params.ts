import type { z } from "zod";
import {
  defaultSortDir,
  deploymentSortKeys,
  FAILED_FILTER,
  sortDirections,
  type DeploymentSort,
} from "@/schemas/deployment-sort";
import { deploymentStatuses, deploymentTypes } from "@/schemas/deployment-values";
import type { deploymentListViewQuery } from "@/schemas/deployment-list-view";

// The deployments list's filters live in the URL: one parser for the server page and the client view.

export type DeploymentStatus = (typeof deploymentStatuses)[number];
/** A status filter choice: an API status, or "FAILED" (the latest revision failed). */
export type StatusChoice = DeploymentStatus | typeof FAILED_FILTER;
export const statusChoices: StatusChoice[] = [FAILED_FILTER, ...deploymentStatuses];
export type DeploymentType = (typeof deploymentTypes)[number];

export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListFilters {
  name_contains: string;
  status: StatusChoice[];
  deployment_type: DeploymentType | null;
  tag_value_ids: string[];
  image_version: string;
  remote_reconciled: "true" | "false" | null;
  /** Preview deployments: null shows them with the rest. */
  previews: "exclude" | "only" | null;
  /** null: the default order, newest first. */
  sort: DeploymentSort | null;
  limit: number;
  offset: number;
}

type ParamSource = { get(name: string): string | null };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const list = (raw: string | null) =>
  (raw ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
const int = (raw: string | null, fallback: number, min: number, max: number) => {
  const n = raw && /^\d+$/.test(raw) ? Number(raw) : fallback;
  return Math.min(Math.max(n, min), max);
};
const oneOf = <T extends string>(values: readonly T[], raw: string | null): T | null =>
  values.includes(raw as T) ? (raw as T) : null;

function sortFromParams(params: ParamSource): DeploymentSort | null {
  const by = oneOf(deploymentSortKeys, params.get("sort"));
  return by ? { by, dir: oneOf(sortDirections, params.get("dir")) ?? defaultSortDir(by) } : null;
}

/** Unknown values in a hand-edited URL are dropped rather than failing the page. */
export function filtersFromParams(params: ParamSource): ListFilters {
  return {
    name_contains: (params.get("name_contains") ?? "").slice(0, 200),
    status: list(params.get("status")).filter((s): s is StatusChoice =>
      statusChoices.includes(s as StatusChoice),
    ),
    deployment_type: oneOf(deploymentTypes, params.get("deployment_type")),
    tag_value_ids: list(params.get("tag_value_ids"))
      .filter((id) => UUID.test(id))
      .slice(0, 100),
    image_version: (params.get("image_version") ?? "").slice(0, 200),
    remote_reconciled: oneOf(["true", "false"] as const, params.get("remote_reconciled")),
    previews: oneOf(["exclude", "only"] as const, params.get("previews")),
    sort: sortFromParams(params),
    limit: int(params.get("limit"), DEFAULT_PAGE_SIZE, 1, 100),
    offset: int(params.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The URL for a set of filters: defaults are left out so shared links stay short. */
export function paramsFromFilters(f: ListFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.name_contains) p.set("name_contains", f.name_contains);
  if (f.status.length) p.set("status", f.status.join(","));
  if (f.deployment_type) p.set("deployment_type", f.deployment_type);
  if (f.tag_value_ids.length) p.set("tag_value_ids", f.tag_value_ids.join(","));
  if (f.image_version) p.set("image_version", f.image_version);
  if (f.remote_reconciled) p.set("remote_reconciled", f.remote_reconciled);
  if (f.previews) p.set("previews", f.previews);
  if (f.sort) {
    p.set("sort", f.sort.by);
    p.set("dir", f.sort.dir);
  }
  if (f.limit !== DEFAULT_PAGE_SIZE) p.set("limit", String(f.limit));
  if (f.offset) p.set("offset", String(f.offset));
  return p;
}

/** Every filter off (sort and page size kept). */
export const noFilters: Partial<ListFilters> = {
  name_contains: "",
  status: [],
  tag_value_ids: [],
  deployment_type: null,
  remote_reconciled: null,
  previews: null,
  image_version: "",
};

export function hasFilters(f: ListFilters): boolean {
  return Boolean(
    f.name_contains ||
    f.status.length ||
    f.deployment_type ||
    f.tag_value_ids.length ||
    f.image_version ||
    f.remote_reconciled ||
    f.previews,
  );
}

/** The deployments.list input (the query's own schema, so values stay strings). */
export function listInput(f: ListFilters): z.input<typeof deploymentListViewQuery> {
  const p = paramsFromFilters(f);
  const statuses = f.status.filter((s) => s !== FAILED_FILTER);
  if (statuses.length) p.set("status", statuses.join(","));
  else p.delete("status");
  if (f.status.includes(FAILED_FILTER)) p.set("failed", "true");
  p.set("limit", String(f.limit));
  return Object.fromEntries(p) as z.input<typeof deploymentListViewQuery>;
}
