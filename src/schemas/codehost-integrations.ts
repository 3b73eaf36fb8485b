import { z } from "zod";
import { timestamp, uuid } from "./common";
import { httpUrl } from "./urls";

// Code-host integrations and their repositories (spec 2.2, 4.3; contract 7).

/** Code hosts number apps and installations; accept 123 or "123", keep text. */
const numericId = (what: string) =>
  z
    .union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/, `${what} is a number`)])
    .transform(String);

const secretText = (max: number) => z.string().min(1).max(max);

export const createCodehostIntegrationBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    api_base_url: httpUrl
      .refine(
        (url) => !url.includes("?") && !url.includes("#"),
        "api_base_url must not carry a query (?) or fragment (#): paths are appended to it",
      )
      .meta({ description: "e.g. https://api.codehost.example" }),
    token: secretText(4096).nullish().meta({ description: "An access token; or app credentials" }),
    app_id: numericId("app_id").nullish(),
    private_key: secretText(16_384).nullish().meta({ description: "The app's PEM private key" }),
    installation_id: numericId("installation_id").nullish(),
    webhook_secret: secretText(4096).nullish(),
  })
  .meta({
    id: "CreateCodehostIntegration",
    description:
      "Either `token`, or `app_id` + `private_key` + `installation_id`. Credentials are write-only.",
  });
export type CreateCodehostIntegrationInput = z.output<typeof createCodehostIntegrationBody>;

export const codehostIntegration = z
  .object({
    id: uuid,
    installation_id: z.string().nullable(),
    name: z.string(),
    api_base_url: z.string(),
    created_at: timestamp,
  })
  .meta({ id: "CodehostIntegration" });
export type CodehostIntegration = z.infer<typeof codehostIntegration>;

export const codehostInstallation = z
  .object({ id: uuid, installation_id: z.string().nullable(), name: z.string() })
  .meta({ id: "CodehostInstallation" });
export type CodehostInstallation = z.infer<typeof codehostInstallation>;

export const repository = z
  .object({
    host_integration_id: uuid.meta({
      description: "Use as integration_id in POST /v2/deployments",
    }),
    id: z.number().int().meta({ description: "Repository id at the code host" }),
    name: z.string(),
    owner: z.string(),
    url: z.string().meta({ description: "Use as source_config.repo_url" }),
    default_branch: z.string().meta({ description: "Use as source_revision_config.repo_ref" }),
  })
  .meta({ id: "Repository" });
export type Repository = z.infer<typeof repository>;

export const integrationParams = z.object({ integration_id: uuid });

// The dashboard's management of integrations (issue 17): detail, edits, checks.

export const codehostIntegrationDetail = z.object({
  id: uuid,
  name: z.string(),
  api_base_url: z.string(),
  auth: z.enum(["token", "app"]),
  app_id: z.string().nullable(),
  installation_id: z.string().nullable(),
  has_webhook_secret: z.boolean(),
  last_checked_at: timestamp.nullable(),
  /** What went wrong at the last check; null when it worked (or never ran). */
  last_check_error: z.string().nullable(),
  /** The deployments of the caller's workspace that use it. */
  used_by: z.array(z.object({ id: uuid, name: z.string() })),
  /** How many deployments of the organization's other workspaces use it. */
  used_elsewhere: z.number().int(),
  created_at: timestamp,
});
export type CodehostIntegrationDetail = z.infer<typeof codehostIntegrationDetail>;

export const updateCodehostIntegrationInput = z.object({
  integration_id: uuid,
  name: createCodehostIntegrationBody.shape.name,
  api_base_url: createCodehostIntegrationBody.shape.api_base_url,
});
export type UpdateCodehostIntegrationInput = z.output<typeof updateCodehostIntegrationInput>;

export const rotateCodehostTokenInput = z.object({
  integration_id: uuid,
  token: z.string().min(1, "Enter the new access token").max(4096),
});

export const connectionCheck = z.object({
  ok: z.boolean(),
  checked_at: timestamp,
  error: z.string().nullable(),
});
export type ConnectionCheck = z.infer<typeof connectionCheck>;

/** A freshly generated webhook secret, shown once. */
export const webhookSecret = z.object({ secret: z.string() });

export const checkCodehostSourceInput = z.object({
  integration_id: uuid,
  repo_url: z.string().min(1),
  repo_ref: z.string().trim().min(1, "Enter a branch"),
  graph_config_path: z.string().trim().min(1, "Enter the graph config path"),
});
export type CheckCodehostSourceInput = z.output<typeof checkCodehostSourceInput>;
