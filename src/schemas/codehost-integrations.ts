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
