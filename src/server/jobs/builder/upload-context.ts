import { UploadTooLarge, uploadOwner, uploadStore, type UploadStore } from "@/server/storage";
import { StepFailure, type BuildPlan } from "../drivers/types";
import { unpackArchive, type ArchiveLimits } from "./archive";
import type { ContextSource } from "./types";

// An uploaded archive (internal_source) as a build's files: the deployment's own upload, unpacked
// under the containment rule; released (deleted) once the build's outcome is recorded.

export function uploadContext(limits: ArchiveLimits, store?: UploadStore): ContextSource {
  const uploads = () => store ?? uploadStore();
  const ownedUpload = (plan: BuildPlan) =>
    plan.source_tarball_path && uploadOwner(plan.source_tarball_path) === plan.deployment_id
      ? plan.source_tarball_path
      : null;
  return {
    async fetch(plan, dir) {
      const objectPath = ownedUpload(plan);
      if (!objectPath)
        throw new StepFailure(
          `source_tarball_path ${plan.source_tarball_path ?? "(none)"} is not an upload of this deployment: request an upload URL and upload the source first.`,
        );
      if (!(await uploads().exists(objectPath)))
        throw new StepFailure(`Upload ${objectPath} not found (expired, or already built).`);
      const archive = await uploads()
        .open(objectPath)
        .catch((error: unknown) => {
          if (error instanceof UploadTooLarge)
            throw new StepFailure(`Upload ${objectPath}: ${error.message}`);
          throw error;
        });
      const unpacked = await unpackArchive(archive, dir, limits);
      const links = Object.keys(unpacked.links).length;
      return {
        unpacked,
        lines: [
          `Unpacked ${unpacked.files.length} files${links ? ` and ${links} links` : ""} (${unpacked.bytes} bytes) from ${objectPath}`,
        ],
      };
    },
    async release(plan) {
      const objectPath = ownedUpload(plan);
      if (objectPath) await uploads().remove(objectPath);
    },
  };
}
