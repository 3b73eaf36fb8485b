import { z } from "zod";
import { uuid } from "./common";

// A Kubernetes build's context, fetched once by the build Job (GET /v2/build-contexts/{id}).

export const buildContextParams = z.object({ context_id: uuid });

export const buildContextQuery = z.object({
  expires: z.string().optional().meta({ description: "Unix seconds; part of the signed URL" }),
  signature: z.string().optional().meta({ description: "Part of the signed URL" }),
});
