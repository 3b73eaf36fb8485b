"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowDown } from "lucide-react";
import { ImageRef, Mono } from "@/components/ui/description-list";
import { shortImage } from "@/lib/image-ref";
import type { Deployment } from "@/schemas/deployments";
import type { Revision } from "@/schemas/revisions";
import { useTRPC } from "@/trpc/react";

/** What a target runs now, in a few words: its active revision's image, by digest when known. */
function currentImage(active: Revision | undefined, target: Deployment): string {
  const image = active
    ? shortImage(active.image_ref ?? active.source_revision_config.image_uri, active.image_digest)
    : null;
  if (image) return image;
  if (!target.active_revision_id) return "nothing deployed yet";
  return "an image with no digest (built in a dry run, or from outside Hangar's registry)";
}

/** One side of the comparison: the image, then the deployment and revision it belongs to. */
function Side({
  testId,
  image,
  title,
  origin,
}: {
  testId: string;
  image: string;
  title?: string;
  origin: string;
}) {
  return (
    <div className="min-w-0 rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
      {/* Wraps after / @ : only, never inside a name. */}
      <p data-testid={testId} title={title}>
        <ImageRef value={image} />
      </p>
      <p data-testid={`${testId}-origin`} className="text-xs text-zinc-600 dark:text-zinc-400">
        {origin}
      </p>
    </div>
  );
}

/**
 * Promotion's effect on one target, shown before it is confirmed: the image it runs now and the
 * one it will run (`repository@sha256:<short>`, each with its deployment and revision), and what
 * stays as the target has it.
 */
export function PromotePreview({
  revision,
  sourceName,
  target,
}: {
  revision: Revision;
  sourceName: string;
  target: Deployment;
}) {
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
  const after = shortImage(revision.image_ref, revision.image_digest) ?? "";
  const before = active.data;
  return (
    <div aria-label="What will change" role="group" className="space-y-3 text-sm">
      <div>
        <p className="font-medium">Image</p>
        {active.isLoading ? (
          <p className="text-zinc-500 dark:text-zinc-400">Reading what {target.name} runs…</p>
        ) : (
          <div className="mt-1 grid gap-1">
            <Side
              testId="promote-from"
              image={currentImage(before, target)}
              title={before?.image_ref ?? before?.source_revision_config.image_uri ?? undefined}
              origin={
                before ? `Now: ${target.name} · revision #${before.number}` : `Now: ${target.name}`
              }
            />
            <p className="flex justify-center">
              <ArrowDown aria-hidden className="size-4 text-zinc-500" />
              <span className="sr-only">becomes</span>
            </p>
            <Side
              testId="promote-to"
              image={after}
              title={revision.image_ref ?? revision.image_digest ?? undefined}
              origin={`After: from ${sourceName} · revision #${revision.number}`}
            />
          </div>
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
