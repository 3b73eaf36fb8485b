import { z } from "zod";
import { uuid } from "./common";

// Source uploads for remote builds (the deploy client's upload-url and signed PUT).

export const uploadUrl = z
  .object({
    upload_url: z.string().meta({
      description: "PUT the gzipped tar here (Content-Type: application/gzip) within 15 minutes",
    }),
    object_path: z.string().meta({
      description: "Send as source_revision_config.source_tarball_path",
    }),
  })
  .meta({ id: "UploadUrl" });
export type UploadUrl = z.infer<typeof uploadUrl>;

export const uploadParams = z.object({ deployment_id: uuid, upload_id: uuid });

export const uploadQuery = z.object({
  expires: z.string().optional().meta({ description: "Unix seconds; part of the signed URL" }),
  signature: z.string().optional().meta({ description: "Part of the signed URL" }),
});
