"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowUpRight } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Mono } from "@/components/ui/description-list";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import type { Deployment } from "@/schemas/deployments";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";
import { PromotePreview } from "./promote-preview";

/** "Promote to…": runs this revision's image (by digest) on another deployment, after a preview. */
export function PromoteButton({
  revision,
  sourceName,
}: {
  revision: Revision;
  sourceName: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => setOpen(true)}
        aria-label={`Promote revision #${revision.number} to another deployment`}
      >
        <ArrowUpRight aria-hidden className="size-4" />
        Promote to…
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Promote revision #${revision.number}`}
        description="Another deployment of this workspace runs this revision's image, pinned by its digest, with its own secrets and resources."
      >
        <PromoteForm revision={revision} sourceName={sourceName} onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

/** A production target (deployment_type `prod`) is confirmed by typing its name. */
const isProduction = (target: Deployment) => target.source_config.deployment_type === "prod";

function PromoteForm({
  revision,
  sourceName,
  onDone,
}: {
  revision: Revision;
  sourceName: string;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const selectId = useId();
  const filterId = useId();
  const confirmId = useId();
  const [targetId, setTargetId] = useState("");
  const [typed, setTyped] = useState("");
  const [filter, setFilter] = useState("");
  // The first 100 matches; the name filter finds any other.
  const candidates = useQuery(
    trpc.deployments.list.queryOptions({
      limit: "100",
      ...(filter.trim() ? { name_contains: filter.trim() } : {}),
    }),
  );
  const targets = (candidates.data?.resources ?? []).filter(
    (d) => d.id !== revision.deployment_id && d.status !== "AWAITING_DELETE",
  );
  const target = targets.find((d) => d.id === targetId);
  const production = !!target && isProduction(target);
  const confirmed = !!target && (!production || typed === target.name);
  const promote = useMutation(
    trpc.revisions.promote.mutationOptions({
      onSuccess: async (result) => {
        const { deployment } = result;
        queryClient.setQueryData(trpc.deployments.get.queryKey({ id: deployment.id }), result);
        void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
        toast.success(`Promoted revision #${revision.number} to ${deployment.name}`);
        onDone();
        router.push(`/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}`);
      },
      onError: (error) => toast.error(`Could not promote: ${error.message}`),
    }),
  );

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!target || !confirmed) return;
        promote.mutate({
          deploymentId: revision.deployment_id,
          revisionId: revision.id,
          target_deployment_id: target.id,
        });
      }}
    >
      <div className="space-y-1">
        <label htmlFor={filterId} className="text-sm font-medium">
          Find a deployment
        </label>
        <Input
          id={filterId}
          data-autofocus
          type="search"
          className="w-full"
          placeholder="Part of its name"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={selectId} className="text-sm font-medium">
          Target deployment
        </label>
        {candidates.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            The deployments could not be loaded.{" "}
            <Button variant="secondary" size="sm" onClick={() => void candidates.refetch()}>
              Try again
            </Button>
          </p>
        ) : (
          <Select
            id={selectId}
            className="w-full"
            value={targetId}
            onChange={(e) => {
              setTargetId(e.target.value);
              setTyped("");
            }}
          >
            <option value="">
              {candidates.isLoading
                ? "Loading deployments…"
                : targets.length
                  ? "Choose a deployment"
                  : filter.trim()
                    ? "No other deployment matches"
                    : "No other deployment in this workspace"}
            </option>
            {targets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.source_config.deployment_type ?? d.source})
              </option>
            ))}
          </Select>
        )}
      </div>
      {target && <PromotePreview revision={revision} sourceName={sourceName} target={target} />}
      {production && (
        <div className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950">
          <p className="text-sm text-amber-900 dark:text-amber-200">
            <strong>{target.name}</strong> is a production deployment: its users get this image as
            soon as the new revision deploys.
          </p>
          <label htmlFor={confirmId} className="block text-sm font-medium">
            Type <Mono>{target.name}</Mono> to confirm
          </label>
          <Input
            id={confirmId}
            className="w-full"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={!confirmed || promote.isPending}>
          {promote.isPending ? "Promoting…" : target ? `Promote to ${target.name}` : "Promote"}
        </Button>
      </div>
    </form>
  );
}
