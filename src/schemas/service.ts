import { z } from "zod";

export const info = z
  .object({
    version: z.string(),
    mode: z.enum(["managed", "self_hosted"]),
    region: z.enum(["us", "eu", "apac", "us2"]),
  })
  .meta({ id: "Info" });

export const health = z.object({ status: z.literal("ok") }).meta({ id: "Health" });
