"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { MAX_ARCHIVE_BYTES } from "./archive";

/** The upload route answers in the contract's error body: its `detail`, or the status. */
async function uploadRefusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { detail?: unknown } | null;
  return typeof body?.detail === "string" ? body.detail : `the upload failed (HTTP ${res.status})`;
}

/**
 * Uploads a source archive the way the deploy client does: a signed URL (tRPC, the same service
 * as POST /v2/deployments/{id}/upload-url), a PUT of the gzipped tar to it, then the patch that
 * names it as source_tarball_path, which cuts a revision.
 */
export function useUploadSource() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const signUrl = useMutation(trpc.deployments.uploadUrl.mutationOptions());
  const patch = useMutation(trpc.deployments.patch.mutationOptions());
  return useMutation({
    mutationFn: async (input: { id: string; archive: Blob; graphConfigPath: string }) => {
      if (input.archive.size > MAX_ARCHIVE_BYTES)
        throw new Error("The archive is larger than 200 MiB, the most one upload may hold.");
      const { upload_url, object_path } = await signUrl.mutateAsync({ id: input.id });
      const res = await fetch(upload_url, {
        method: "PUT",
        headers: { "Content-Type": "application/gzip" },
        body: input.archive,
      });
      if (!res.ok) throw new Error(`Could not upload the archive: ${await uploadRefusal(res)}`);
      return patch.mutateAsync({
        id: input.id,
        patch: {
          source_revision_config: {
            source_tarball_path: object_path,
            graph_config_path: input.graphConfigPath,
          },
        },
      });
    },
    onSuccess: async (result, input) => {
      queryClient.setQueryData(trpc.deployments.get.queryKey({ id: input.id }), result);
      await queryClient.invalidateQueries({ queryKey: trpc.revisions.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.deployments.list.pathKey() });
    },
  });
}
