"use client";

import { useState } from "react";
import type { Archive } from "@/components/create/archive";
import { ArchivePicker } from "@/components/create/archive-picker";
import { useUploadSource } from "@/components/create/use-upload-source";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import type { Deployment } from "@/schemas/deployments";
import type { VersionedDeployment } from "@/server/services/deployments/read";
import { apiFailure } from "@/trpc/errors";

/** An uploaded-source deployment takes a new archive here: uploading it cuts a revision. */
export function SourceUpload({
  deployment: d,
  onUploaded,
}: {
  deployment: Deployment;
  onUploaded: (saved: VersionedDeployment) => void;
}) {
  const [archive, setArchive] = useState<Archive | null>(null);
  const [error, setError] = useState<string>();
  const upload = useUploadSource();
  const waiting = !d.source_revision_config.source_tarball_path;

  const send = () => {
    if (!archive) return setError("Choose a .tar.gz archive or a folder to upload.");
    upload.mutate(
      {
        id: d.id,
        archive: archive.blob,
        graphConfigPath: d.source_revision_config.graph_config_path ?? "langgraph.json",
      },
      {
        onSuccess: (saved) => {
          toast.success("Uploaded: a new revision is queued");
          setArchive(null);
          onUploaded(saved);
        },
        onError: (e) => setError(apiFailure(e).message),
      },
    );
  };

  return (
    <div className="space-y-3 sm:col-span-2">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {waiting
          ? "Waiting for first upload: this deployment has no source yet, so no revision has run."
          : "Upload a new archive of the project to build and deploy it as a new revision."}
      </p>
      <ArchivePicker
        archive={archive}
        error={error}
        onChange={(chosen, message) => {
          setArchive(chosen);
          setError(message);
        }}
      />
      <Button variant="secondary" onClick={send} disabled={upload.isPending}>
        {upload.isPending ? "Uploading…" : "Upload and deploy"}
      </Button>
    </div>
  );
}
