import type { Runtime } from "@/schemas/deployments";
import type { Builder } from "@/schemas/service";
import { TriangleAlertIcon } from "@/components/ui/icons";

/**
 * Every page says what is a dry run: without a cluster nothing runs, without an image builder
 * revisions from source are not built. Nothing to say when both are configured.
 */
export function DryRunBanner({ runtime, builder }: { runtime: Runtime; builder: Builder }) {
  const noCluster = runtime === "dry_run";
  const noBuilder = builder === "dry_run";
  if (!noCluster && !noBuilder) return null;
  return (
    <div
      role="note"
      aria-label="Dry run"
      className="border-b border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200"
    >
      <p className="mx-auto flex max-w-6xl items-start gap-2 px-4 py-2 text-sm sm:px-6">
        <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
        {noCluster && noBuilder ? (
          <span>
            <strong className="font-semibold">Dry run.</strong> No cluster is configured
            (HANGAR_KUBECONFIG) and no image builder (HANGAR_BUILDER), so Hangar builds and starts
            nothing: builds are a dry run that names an image without building it, each
            revision&apos;s Kubernetes manifests are only recorded (&ldquo;Recorded (dry run)&rdquo;),
            and nothing is running anywhere.
          </span>
        ) : noCluster ? (
          <span>
            <strong className="font-semibold">Dry run.</strong> No cluster is configured
            (HANGAR_KUBECONFIG): images are built ({builder}) and pushed to the registry, but
            nothing is started: each revision&apos;s Kubernetes manifests are only recorded
            (&ldquo;Recorded (dry run)&rdquo;), and nothing is running anywhere.
          </span>
        ) : (
          <span>
            <strong className="font-semibold">Builds are a dry run.</strong> No image builder is
            configured (HANGAR_BUILDER): container images deploy, but revisions from source
            (uploads, repositories) are not built, so they end &ldquo;Build failed&rdquo;.
          </span>
        )}
      </p>
    </div>
  );
}
