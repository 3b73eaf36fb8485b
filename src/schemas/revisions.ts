import { z } from "zod";
import { csvQuery, page, paginationQuery, timestamp, uuid } from "./common";
import { deploymentSource, runtime, sourceRevisionConfigOutput } from "./deployments";
import { revisionStatuses } from "./deployment-values";

// Revisions (contract 6).

export { revisionStatuses };
export const revisionStatus = z.enum(revisionStatuses).meta({ id: "RevisionStatus" });
export type RevisionStatus = z.infer<typeof revisionStatus>;

export const promotedFrom = z
  .object({
    deployment_id: uuid,
    deployment_name: z.string(),
    revision_id: uuid,
    revision_number: z.number().int().min(1),
  })
  .meta({
    id: "PromotedFrom",
    description:
      "The deployment and revision whose image this revision runs, as they were when it was promoted",
  });
export type PromotedFrom = z.infer<typeof promotedFrom>;

export const revision = z
  .object({
    id: uuid,
    deployment_id: uuid,
    number: z.number().int().min(1),
    status: revisionStatus,
    status_message: z.string().nullable(),
    source: deploymentSource,
    source_revision_config: sourceRevisionConfigOutput,
    remote_reconciled: z
      .boolean()
      .meta({ description: "A listener in the customer's cluster applied this revision" }),
    runtime: runtime.nullable().meta({
      description:
        "Where the revision was deployed: `kubernetes`, or `dry_run` (no cluster: nothing was started, the manifests are only recorded); null until it is deployed",
    }),
    image_digest: z.string().nullable().meta({
      description:
        "The manifest digest of an image pushed to Hangar's registry, which the revision deploys (image@digest); null for other sources",
    }),
    image_ref: z.string().nullable().meta({
      description:
        "The image the revision runs: `<registry>/<repository>@<digest>` once pushed to Hangar's registry, else the image as built or named; null until its build step",
    }),
    promoted_from: promotedFrom.nullable().meta({
      description:
        "Where a promoted revision's image came from (POST .../promote); null for every other revision",
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Revision" });
export type Revision = z.infer<typeof revision>;

export const listRevisionsQuery = z.object({
  ...paginationQuery,
  status: csvQuery(revisionStatus, { description: "Comma-separated revision statuses" }),
});
export type ListRevisionsQuery = z.output<typeof listRevisionsQuery>;

export const revisionPage = page(revision).meta({ id: "RevisionPage" });

export const revisionParams = z.object({ deployment_id: uuid, revision_id: uuid });

export const promoteRevisionBody = z
  .object({
    target_deployment_id: uuid.meta({
      description:
        "The deployment (of the same workspace, not the revision's own) that runs the revision's image next",
    }),
  })
  .meta({ id: "PromoteRevisionBody" });
export type PromoteRevisionBody = z.infer<typeof promoteRevisionBody>;
