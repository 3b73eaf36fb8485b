import { z } from "zod";
import { timestamp, uuid } from "./common";

// Preview deployments (issue 26): a code-host deployment with build_on_push can build every pull
// request of its repository into a child deployment of its own (contract 5.6).

export const PREVIEW_DEFAULTS = { max_open: 5, ttl_hours: 72, secrets: "none" } as const;

/** Previews follow build_on_push: the API's 422 and the dashboard's form say it in these words. */
export const PREVIEWS_NEED_BUILD_ON_PUSH =
  "Previews need build_on_push: turn build_on_push on to build pull requests.";

export const previewSecrets = z.enum(["inherit", "none"]).meta({
  id: "PreviewSecrets",
  description:
    "`inherit`: a preview of a pull request from the repository itself gets the parent's secrets; `none`: no preview gets them. A pull request from a fork never does.",
});
export type PreviewSecrets = z.infer<typeof previewSecrets>;

/** source_config.previews as sent: every member optional except `enabled`. */
export const previewsConfigInput = z
  .strictObject({
    enabled: z.boolean(),
    max_open: z
      .number()
      .int("max_open must be a whole number")
      .min(1, "max_open is at least 1")
      .max(50, "max_open is at most 50")
      .optional(),
    ttl_hours: z
      .number()
      .int("ttl_hours must be a whole number")
      .min(1, "ttl_hours is at least 1")
      .max(720, "ttl_hours is at most 720 (30 days)")
      .optional(),
    secrets: previewSecrets.optional(),
  })
  .meta({ id: "PreviewsConfigInput" });
export type PreviewsConfigInput = z.infer<typeof previewsConfigInput>;

export const previewsConfig = z
  .object({
    enabled: z.boolean(),
    max_open: z.number().int(),
    ttl_hours: z.number().int(),
    secrets: previewSecrets,
  })
  .meta({ id: "PreviewsConfig" });
export type PreviewsConfig = z.infer<typeof previewsConfig>;

/** The stored config with its defaults filled in. */
export const withPreviewDefaults = (input: PreviewsConfigInput): PreviewsConfig => ({
  ...PREVIEW_DEFAULTS,
  ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  enabled: input.enabled,
});

/** What a preview deployment says about itself (`Deployment.preview`; null for others). */
export const previewInfo = z
  .object({
    parent_id: uuid.nullable().meta({
      description: "The deployment it previews (null once that one is gone)",
    }),
    pr_number: z.number().int(),
    pr_title: z.string(),
    pr_url: z.string(),
    branch: z.string(),
    author: z.string(),
    head_sha: z.string().meta({
      description: "The pull request's head commit: every revision of the preview builds it",
    }),
    head_repo_url: z.string().nullable().meta({
      description:
        "The repository the head lives in (a fork's own; null when the fork was deleted). A fork's head is fetched through the base repository, which holds it as the pull request's ref",
    }),
    fork: z.boolean().meta({
      description:
        "The pull request comes from a fork: never gets the parent's secrets, and its own secrets apply only to the approved head commit",
    }),
    approved_sha: z.string().nullable().meta({
      description:
        "Forks only: the head commit an editor approved to run with the preview's secrets (null: none yet). A head other than this one is built without secrets until an editor approves it",
    }),
    last_push_at: timestamp.meta({
      description: "The last push to the pull request; ttl_hours counts from here",
    }),
  })
  .meta({ id: "PreviewInfo" });
export type PreviewInfo = z.infer<typeof previewInfo>;

/** A head commit sha as the code host names it. */
export const commitSha = z.string().regex(/^[0-9a-f]{7,64}$/i, "sha must be a commit sha");

/** POST /v2/deployments/{id}/preview/approve: the head commit the editor reviewed. */
export const approvePreviewBody = z
  .strictObject({
    head_sha: commitSha.meta({
      description:
        "The head commit you reviewed; it must be the preview's head_sha (409 when the pull request moved on)",
    }),
  })
  .meta({ id: "ApprovePreview" });
export type ApprovePreviewBody = z.infer<typeof approvePreviewBody>;

/** `previews` in the list query: include them (default), leave them out, or only them. */
export const previewsFilter = z
  .enum(["include", "exclude", "only"])
  .optional()
  .meta({ description: "`include` (default), `exclude` or `only` preview deployments" });

const account = z.looseObject({ login: z.string().min(1).max(200) });

/** A pull_request event as the code host sends it; only what Hangar reads is checked. */
export const pullRequestEvent = z
  .looseObject({
    action: z.string().min(1).max(100),
    number: z.number().int().min(1),
    pull_request: z.looseObject({
      title: z.string().max(1000).default(""),
      html_url: z.string().min(1).max(2048),
      merged: z.boolean().nullish(),
      user: account,
      head: z.looseObject({
        ref: z.string().min(1).max(1000),
        sha: commitSha,
        repo: z.looseObject({ html_url: z.string().min(1).max(2048) }).nullable(),
      }),
      base: z.looseObject({
        ref: z.string().min(1).max(1000),
        repo: z.looseObject({ html_url: z.string().min(1).max(2048) }),
      }),
    }),
    repository: z.looseObject({ html_url: z.string().min(1).max(2048) }),
  })
  .meta({
    id: "CodehostPullRequestEvent",
    description:
      "A pull_request event (actions opened, synchronize, reopened, closed; others are ignored), signed and identified as a push event is.",
  });
export type PullRequestEvent = z.infer<typeof pullRequestEvent>;

/** What a pull_request delivery did, per preview it touched. */
export const previewOutcome = z
  .object({
    parent_id: uuid.nullable(),
    preview_id: uuid.nullable(),
    outcome: z.enum(["created", "updated", "deleted", "refused", "unchanged"]),
    detail: z.string().nullable(),
  })
  .meta({ id: "PreviewOutcome" });
export type PreviewOutcome = z.infer<typeof previewOutcome>;

/** The pull-request webhook previews need (dashboard only, beside the previews switch). */
export const previewsWebhook = z
  .object({
    state: z.enum(["no_integration", "no_secret", "no_deliveries", "receiving"]).meta({
      description:
        "no_secret: the integration has no webhook secret, so deliveries are refused; no_deliveries: none has arrived yet",
    }),
    last_delivery_at: timestamp.nullable().meta({
      description: "When the integration's last pull_request delivery arrived",
    }),
  })
  .meta({ id: "PreviewsWebhook" });
export type PreviewsWebhook = z.infer<typeof previewsWebhook>;
