import { z } from "zod";
import { runtime } from "./deployments";

export const info = z
  .object({
    version: z.string(),
    mode: z.enum(["managed", "self_hosted"]),
    region: z.enum(["us", "eu", "apac", "us2"]),
    runtime: runtime.meta({
      description:
        "What this installation does with revisions: `kubernetes` (HANGAR_KUBECONFIG is set) or `dry_run` (nothing is built or started; manifests are only recorded).",
    }),
  })
  .meta({ id: "Info" });

export const health = z.object({ status: z.literal("ok") }).meta({ id: "Health" });
