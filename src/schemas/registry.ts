import { z } from "zod";
import { timestamp } from "./common";

// Image deploys through Hangar's container registry: push tokens, and the registry's token
// endpoint (the Distribution registry's token authentication).

export const pushToken = z
  .object({
    token: z.string().meta({
      description:
        "Log in to the registry as `oauth2accesstoken` with this password; valid for one hour, shown once",
    }),
    registry_url: z.string().meta({
      description:
        "The registry and the workspace's namespace: push `<registry_url>/<deployment name>:<tag>`",
    }),
    expires_at: timestamp,
  })
  .meta({ id: "PushToken" });
export type PushToken = z.infer<typeof pushToken>;

/** What the dashboard needs to show the push commands (no secret). */
export const registryTarget = z
  .object({
    registry_url: z.string().nullable(),
    image: z.string().nullable(),
  })
  .meta({ id: "RegistryTarget" });
export type RegistryTarget = z.infer<typeof registryTarget>;

export const registryTokenQuery = z.object({
  service: z.string().optional().meta({ description: "The registry's service name" }),
  scope: z
    .string()
    .optional()
    .meta({ description: "`repository:<name>:<actions>`; may be repeated" }),
  account: z.string().optional(),
  client_id: z.string().optional(),
  offline_token: z.string().optional(),
});

export const registryToken = z
  .object({
    token: z.string(),
    access_token: z.string(),
    expires_in: z.number().int(),
    issued_at: timestamp,
  })
  .meta({ id: "RegistryToken" });
export type RegistryToken = z.infer<typeof registryToken>;
