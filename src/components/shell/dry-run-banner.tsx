import { TriangleAlertIcon } from "@/components/ui/icons";

/** Every page says it while no cluster is configured: revisions are recorded, nothing runs. */
export function DryRunBanner() {
  return (
    <div
      role="note"
      aria-label="Dry run"
      className="border-b border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200"
    >
      <p className="mx-auto flex max-w-6xl items-start gap-2 px-4 py-2 text-sm sm:px-6">
        <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>
          <strong className="font-semibold">Dry run.</strong> No cluster is configured
          (HANGAR_KUBECONFIG), so Hangar builds and starts nothing: each revision&apos;s Kubernetes
          manifests are only recorded, and a &ldquo;Deployed&rdquo; revision is not running
          anywhere.
        </span>
      </p>
    </div>
  );
}
