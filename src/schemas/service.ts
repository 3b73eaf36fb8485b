import { z } from "zod";
import { runtime } from "./deployments";

export const builder = z.enum(["buildah", "kubernetes", "dry_run"]).meta({
  description:
    "What turns revisions from source (uploads, repositories) into images: `buildah` (on the worker's machine), `kubernetes` (a Job in the cluster), or `dry_run` (HANGAR_BUILDER is unset: the image is named, not built).",
});
export type Builder = z.infer<typeof builder>;

export const info = z
  .object({
    version: z.string(),
    mode: z.enum(["managed", "self_hosted"]),
    region: z.enum(["us", "eu", "apac", "us2"]),
    runtime: runtime.meta({
      description:
        "Where this installation runs revisions: `kubernetes` (HANGAR_KUBECONFIG is set) or `dry_run` (nothing is started; manifests are only recorded).",
    }),
    builder,
    workers: z.number().int().min(0).nullable().meta({
      description:
        "Revision workers alive now: registered and holding their database session (null while the database cannot be asked). A worker whose session ends is gone at once, and its running steps are handed to another.",
    }),
  })
  .meta({ id: "Info" });

export const health = z.object({ status: z.literal("ok") }).meta({ id: "Health" });
