import { GitCommitVertical, Info } from "lucide-react";

const labels: Record<string, string> = {
  revision_source: "Revision source",
  "source_revision_config.repo_ref": "Branch or ref",
  "source_revision_config.graph_config_path": "Graph config path",
  "source_revision_config.image_uri": "Image",
  "source_revision_config.source_tarball_path": "Source tarball",
  "source_config.resource_spec": "Resources",
  "source_config.install_command": "Install command",
  "source_config.build_command": "Build command",
  "source_config.build_on_push": "Build on push",
  "source_config.previews": "Previews",
  "source_config.custom_url": "Custom URL",
  "source_config.listener_config": "Listener config",
  "source_config.template_id": "Template",
  secrets: "Secrets",
  tag_value_ids: "Tags",
};
const label = (field: string) => labels[field] ?? field;

/**
 * What saving will do, shown before saving: which pending changes cut a new revision (contract
 * 5.4) and which are saved without one.
 */
export function ChangeNotice({
  cuts,
  settings,
  nextRevision,
}: {
  cuts: string[];
  settings: string[];
  nextRevision: number | null;
}) {
  if (cuts.length === 0 && settings.length === 0) {
    return (
      <p role="status" className="text-sm text-zinc-500 dark:text-zinc-400">
        No pending changes.
      </p>
    );
  }
  return (
    <div role="status" className="space-y-2 text-sm">
      {cuts.length > 0 && (
        <p className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200">
          <GitCommitVertical aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            <strong className="font-semibold">
              Saving will cut a new revision{nextRevision ? ` (#${nextRevision})` : ""}
            </strong>{" "}
            because of: {cuts.map(label).join(", ")}.
          </span>
        </p>
      )}
      {settings.length > 0 && (
        <p className="flex items-start gap-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            {settings.map(label).join(", ")}{" "}
            {cuts.length ? "will be saved too; they" : "will be saved without a new revision: they"}{" "}
            never cut one.
          </span>
        </p>
      )}
    </div>
  );
}
