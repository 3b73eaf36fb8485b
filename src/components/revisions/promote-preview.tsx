"use client";

import { useQuery } from "@tanstack/react-query";
import { ImageRef, Mono } from "@/components/ui/description-list";
import type { Deployment } from "@/schemas/deployments";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";

/** What a target runs now, in a few words: its active revision's digest or image. */
function currentImage(active: Revision | undefined, target: Deployment): string {
  if (active?.image_digest) return active.image_digest;
  if (active?.source_revision_config.image_uri) return active.source_revision_config.image_uri;
  if (!target.active_revision_id) return "nothing deployed yet";
  return "an image with no digest (built in a dry run, or from outside Hangar's registry)";
}

/** Promotion's effect on one target, shown before it is confirmed: what changes, what stays. */
export function PromotePreview({ revision, target }: { revision: Revision; target: Deployment }) {
  const trpc = useTRPC();
  const active = useQuery({
    ...trpc.revisions.get.queryOptions({
      deploymentId: target.id,
      revisionId: target.active_revision_id ?? "",
    }),
    enabled: !!target.active_revision_id,
  });
  const secrets = target.secrets.map((s) => s.name);
  const resources = target.source_config.resource_spec;
  return (
    <div aria-label="What will change" role="group" className="space-y-3 text-sm">
      <div>
        <p className="font-medium">Image</p>
        {active.isLoading ? (
          <p className="text-zinc-500 dark:text-zinc-400">Reading what {target.name} runs…</p>
        ) : (
          <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
            <dt className="text-zinc-500 dark:text-zinc-400">Now</dt>
            <dd data-testid="promote-from">
              <ImageRef value={currentImage(active.data, target)} />
            </dd>
            <dt className="text-zinc-500 dark:text-zinc-400">After</dt>
            <dd data-testid="promote-to">
              <ImageRef value={revision.image_digest ?? ""} />
            </dd>
          </dl>
        )}
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Pinned by digest: nothing is rebuilt. A new revision of {target.name} runs it.
        </p>
      </div>
      <div>
        <p className="font-medium">Stays as {target.name} has it</p>
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-zinc-700 dark:text-zinc-300">
          <li>Secrets: {secrets.length ? <Mono>{secrets.join(", ")}</Mono> : "none"}</li>
          <li>
            Resources: {resources ? "its own resource spec" : "the platform defaults"}, URL, tags
            and source
          </li>
        </ul>
      </div>
    </div>
  );
}
