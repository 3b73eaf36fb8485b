"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { StatusBadge } from "@/components/deployments-list/status-badge";
import { deploymentDisplayStatus } from "@/schemas/deployment-status";
import { useDeploymentChanges } from "@/components/deployments-list/use-deployment-changes";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FolderGit2Icon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import type { DeploymentRow } from "@/schemas/deployment-list-view";
import type { Deployment } from "@/schemas/deployments";
import { isHttpUrl } from "@/schemas/web-url";
import { useTRPC } from "@/trpc/react";
import { PreviewApproval } from "./preview-approval";

const link =
  "rounded-sm text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400";

/** A deployment's preview deployments, one per open pull request (contract 5.6). */
export function PreviewsCard({ deployment: d }: { deployment: Deployment }) {
  const trpc = useTRPC();
  const enabled = d.source_config.previews?.enabled ?? false;
  const list = useQuery(
    trpc.deployments.list.queryOptions({ parent_id: d.id, previews: "only", limit: "50" }),
  );
  const rows = list.data?.resources ?? [];
  const queryClient = useQueryClient();
  const { refetch } = list;
  // A new preview came with a pull-request delivery: the webhook's line is read again too.
  const onChange = () => {
    void refetch();
    void queryClient.invalidateQueries({ queryKey: trpc.previews.webhook.pathKey() });
  };
  let body;
  if (list.isError) {
    body = (
      <p role="alert" className="text-sm text-red-800 dark:text-red-300">
        Could not load previews: {list.error.message}
      </p>
    );
  } else if (!list.data) {
    body = (
      <div role="status" aria-label="Loading previews" className="space-y-2">
        <Skeleton className="h-6 w-full" />
        <Skeleton className="h-6 w-2/3" />
      </div>
    );
  } else if (rows.length === 0) {
    body = (
      <EmptyState
        icon={FolderGit2Icon}
        title="No previews"
        description={
          enabled
            ? "Open a pull request into this deployment's branch: Hangar builds it into a preview of its own."
            : "Previews are off: turn on Previews in this deployment's Settings (with Build on push) to build every pull request."
        }
      />
    );
  } else {
    body = (
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Previews">
        {rows.map((p) => {
          const url = p.source_config.custom_url;
          return (
            <li
              key={p.id}
              className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:gap-4"
            >
              <div className="min-w-0 flex-1">
                <Link href={`/deployments/${p.id}`} className={`font-medium ${link}`}>
                  #{p.preview?.pr_number} {p.preview?.pr_title}
                </Link>
                <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">
                  <span className="font-mono">{p.preview?.branch}</span> by {p.preview?.author}
                  {p.preview?.fork
                    ? p.preview.approved_sha === p.preview.head_sha
                      ? " · from a fork (head approved)"
                      : " · from a fork (head awaits approval)"
                    : ""}{" "}
                  · opened <RelativeTime iso={p.created_at} />
                </p>
                <p className="flex flex-wrap gap-x-3 text-xs">
                  {p.preview && (
                    <CommitLink sha={p.preview.head_sha} repo={p.source_config.repo_url} />
                  )}
                  {p.latest_revision && (
                    <Link
                      href={`/deployments/${p.id}/revisions/${p.latest_revision.id}`}
                      className={link}
                    >
                      Build log of revision #{p.latest_revision.number}
                    </Link>
                  )}
                </p>
              </div>
              <PreviewStatus preview={p} />
              {url && isHttpUrl(url) && p.runtime === "kubernetes" ? (
                <a href={url} className={`text-sm ${link}`} target="_blank" rel="noreferrer">
                  {url}
                </a>
              ) : (
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {p.runtime === "dry_run" ? "Dry run: not running" : "No URL yet"}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Card>
      <CardHeader
        title="Previews"
        description={
          enabled
            ? `One per open pull request (at most ${d.source_config.previews?.max_open}), deleted when it closes or after ${d.source_config.previews?.ttl_hours} hours without a push.`
            : "Previews of this deployment's pull requests."
        }
      />
      <CardBody>
        <p className="mb-1 text-sm font-medium text-zinc-900 dark:text-zinc-100">
          Previews: {enabled ? "on" : "off"}
        </p>
        {enabled && <WebhookLine deploymentId={d.id} />}
        {(enabled || rows.length > 0) && <FollowPreviews onChange={onChange} />}
        {body}
      </CardBody>
    </Card>
  );
}

/** A preview's badge and, when it failed, why (the same words as its own overview). */
function PreviewStatus({ preview: p }: { preview: DeploymentRow }) {
  const status = deploymentDisplayStatus(p, p.latest_revision, p.active_revision);
  return (
    <div className="space-y-0.5 sm:max-w-xs">
      <StatusBadge deployment={p} latest={p.latest_revision} active={p.active_revision} />
      {status.reason && (
        <p className="text-xs break-words text-red-800 dark:text-red-300">{status.reason}</p>
      )}
    </div>
  );
}

/** The head commit, short, linking to the code host when the repository is a web address. */
function CommitLink({ sha, repo }: { sha: string; repo: string | null }) {
  const short = <span className="font-mono">{sha.slice(0, 7)}</span>;
  return repo && isHttpUrl(repo) ? (
    <a
      href={`${repo.replace(/\.git$/, "").replace(/\/$/, "")}/commit/${sha}`}
      className={link}
      target="_blank"
      rel="noreferrer"
      aria-label={`Commit ${sha.slice(0, 7)} on the code host`}
    >
      Commit {short}
    </a>
  ) : (
    <span>Commit {short}</span>
  );
}

/** Beside the switch: whether the pull-request webhook previews need arrives. */
function WebhookLine({ deploymentId }: { deploymentId: string }) {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.previews.webhook.queryOptions({ deploymentId }));
  if (!data) return null;
  const words = {
    no_integration: "No code-host integration: pull requests cannot reach Hangar.",
    no_secret:
      "Pull-request webhook: its integration has no webhook secret, so deliveries are refused.",
    no_deliveries: "Pull-request webhook: no delivery has arrived yet.",
    receiving: "Pull-request webhook: receiving, last delivery",
  }[data.state];
  return (
    <p
      data-testid="previews-webhook"
      className={`mb-3 text-sm ${data.state === "receiving" ? "text-zinc-600 dark:text-zinc-400" : "text-amber-800 dark:text-amber-300"}`}
    >
      {words}
      {data.last_delivery_at && (
        <>
          {" "}
          <RelativeTime iso={data.last_delivery_at} />.
        </>
      )}
    </p>
  );
}

/**
 * Previews are deployments of their own: their changes (a new preview, a revision that deploys,
 * one deleted) come on the workspace's change stream, not on the parent's.
 */
function FollowPreviews({ onChange }: { onChange: () => void }) {
  useDeploymentChanges(onChange);
  return null;
}

/** On a preview's page: its pull request and the deployment it previews. */
export function PreviewOfCard({ deployment: d }: { deployment: Deployment }) {
  const p = d.preview;
  if (!p) return null;
  return (
    <Card>
      <CardHeader title="Preview" description="A preview of a pull request." />
      <CardBody>
        <ul className="space-y-1 text-sm">
          <li>
            Pull request:{" "}
            {isHttpUrl(p.pr_url) ? (
              <a href={p.pr_url} className={link} target="_blank" rel="noreferrer">
                #{p.pr_number} {p.pr_title}
              </a>
            ) : (
              `#${p.pr_number} ${p.pr_title}`
            )}
          </li>
          <li>
            Previews:{" "}
            {p.parent_id ? (
              <Link href={`/deployments/${p.parent_id}`} className={link}>
                its parent deployment
              </Link>
            ) : (
              "a deployment that was deleted"
            )}
          </li>
          <li>
            Branch <span className="font-mono">{p.branch}</span> by {p.author}, last push{" "}
            <RelativeTime iso={p.last_push_at} />
          </li>
          <li>
            Head commit <span className="font-mono">{p.head_sha.slice(0, 7)}</span>
            {p.fork ? " from a fork, fetched through the pull request" : ""}: every revision builds
            it.
          </li>
          {p.fork && <li>From a fork: never gets the parent&apos;s secrets.</li>}
        </ul>
        {p.fork && (
          <div className="mt-3">
            <PreviewApproval deployment={d} />
          </div>
        )}
      </CardBody>
    </Card>
  );
}
