"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { toast } from "@/components/ui/toast";
import type { Deployment } from "@/schemas/deployments";
import { useTRPC } from "@/trpc/react";
import { useCanChange } from "./use-deployment";

// A fork preview's secrets apply only to the head commit an editor approved (contract 5.6):
// the card says which commit that is, and an editor approves the head after reviewing it.

const short = (sha: string) => sha.slice(0, 7);

/** `owner/name`: a repository URL's last two segments, for reading. */
const repoName = (url: string | null) =>
  url ? url.replace(/\/+$/, "").split("/").slice(-2).join("/") : "a fork that was deleted";

export function PreviewApproval({ deployment: d }: { deployment: Deployment }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canChange = useCanChange(d.id);
  const approve = useMutation(
    trpc.previews.approve.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.deployments.get.queryKey({ id: d.id }), result);
        void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
        toast.success(
          d.secrets.length
            ? `Approved ${short(result.deployment.preview?.approved_sha ?? "")}: redeploying with its secrets`
            : `Approved ${short(result.deployment.preview?.approved_sha ?? "")}`,
        );
      },
      onError: (error) => toast.error(`Could not approve: ${error.message}`),
    }),
  );
  const p = d.preview;
  if (!p?.fork) return null;
  const head = short(p.head_sha);
  if (p.approved_sha === p.head_sha)
    return (
      <p className="flex items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
        <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
        <span>
          Head commit <span className="font-mono">{head}</span> is approved: it runs with this
          preview&apos;s secrets. A new commit from the fork runs without them until approved.
        </span>
      </p>
    );
  const count = d.secrets.length;
  const secrets = count === 1 ? "its 1 secret" : `its ${count} secrets`;
  return (
    <div className="space-y-3">
      <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200">
        Head commit <span className="font-mono">{head}</span> from {repoName(p.head_repo_url)}{" "}
        awaits approval: its revisions run without this preview&apos;s secrets
        {p.approved_sha ? (
          <>
            {" "}
            (approved before: <span className="font-mono">{short(p.approved_sha)}</span>)
          </>
        ) : null}
        .
      </p>
      {canChange && (
        <ConfirmButton
          label={`Approve commit ${head}`}
          title={`Approve commit ${head}?`}
          description={
            count
              ? `The fork's code at ${head} will run with ${secrets}: review the pull request at this commit first. A revision is deployed now; the fork's next push runs without secrets until approved again.`
              : `Secrets you give this preview later apply to ${head}. The fork's next push runs without them until approved again.`
          }
          confirmLabel={count ? "Approve and deploy" : "Approve"}
          pendingLabel="Approving…"
          pending={approve.isPending}
          onConfirm={(close) =>
            approve.mutate(
              { deploymentId: d.id, head_sha: p.head_sha },
              { onSettled: () => close() },
            )
          }
        >
          <ShieldCheck aria-hidden className="size-4" />
          Approve commit {head}
        </ConfirmButton>
      )}
    </div>
  );
}
