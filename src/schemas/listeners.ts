import { z } from "zod";
import { boundedText } from "./limits";
import { page, paginationQuery, timestamp, uuid } from "./common";

// Listeners (contract 14): agents in a customer's cluster that apply the revisions of the
// deployments assigned to them, and the protocol they speak with Hangar.

const namespace = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "A Kubernetes namespace is a DNS label");

export const computeConfig = z
  .object({
    k8s_namespaces: z
      .array(namespace)
      .min(1, "Name at least one namespace")
      .max(100)
      .refine((list) => new Set(list).size === list.length, "Namespaces are listed once each"),
  })
  .meta({ id: "ListenerComputeConfig" });
export type ComputeConfig = z.infer<typeof computeConfig>;

export const listenerStatus = z.enum(["online", "offline"]).meta({ id: "ListenerStatus" });

export const listener = z
  .object({
    id: uuid,
    compute_type: z.literal("k8s"),
    compute_id: z.string(),
    compute_config: computeConfig,
    version: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    last_seen_at: timestamp.nullable(),
    status: listenerStatus,
  })
  .meta({ id: "Listener" });
export type Listener = z.infer<typeof listener>;

export const createdListener = listener
  .extend({
    token: z.string().meta({
      description: "The listener's credential (Authorization: Bearer). Shown only once.",
    }),
  })
  .meta({ id: "CreatedListener" });
export type CreatedListener = z.infer<typeof createdListener>;

const version = boundedText("identifier").min(1);

export const createListenerBody = z
  .object({
    compute_type: z.literal("k8s"),
    compute_id: boundedText("identifier").trim().min(1),
    compute_config: computeConfig,
    version: version.nullish(),
  })
  .meta({ id: "CreateListener" });
export type CreateListenerInput = z.infer<typeof createListenerBody>;

export const patchListenerBody = z
  .object({ version: version.nullish(), compute_config: computeConfig.nullish() })
  .meta({ id: "PatchListener" });
export type PatchListenerInput = z.infer<typeof patchListenerBody>;

export const listListenersQuery = z.object({ ...paginationQuery });
export type ListListenersQuery = z.output<typeof listListenersQuery>;

export const listenerPage = page(listener).meta({ id: "ListenerPage" });

export const listenerParams = z.object({ listener_id: uuid });

// The listener protocol (contract 14.3).

export const replicaId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, "A replica id is 1-100 letters, digits, '.', '_' or '-'");

export const claimWorkBody = z
  .object({
    replica_id: replicaId,
    wait_seconds: z.number().int().min(0).max(60).optional(),
  })
  .meta({ id: "ClaimListenerWork" });
export type ClaimWorkInput = z.infer<typeof claimWorkBody>;

const kubernetesObjects = z.array(z.record(z.string(), z.unknown()));

export const listenerApplyWork = z
  .object({
    action: z.literal("apply"),
    revision_id: uuid,
    deployment_id: uuid,
    deployment_name: z.string(),
    revision_number: z.number().int(),
    namespace: z.string(),
    lease_expires_at: timestamp,
    objects: kubernetesObjects.meta({
      description: "The Kubernetes objects to apply, in order (server-side apply)",
    }),
  })
  .meta({ id: "ListenerApplyWork" });
export type ListenerApplyWork = z.infer<typeof listenerApplyWork>;

export const listenerDeleteWork = z
  .object({
    action: z.literal("delete"),
    deployment_id: uuid,
    deployment_name: z.string(),
    namespace: z.string(),
    lease_expires_at: timestamp,
    objects: kubernetesObjects.meta({
      description:
        "The objects any revision of the deployment applied, to delete (missing ones are fine); Namespaces are kept",
    }),
  })
  .meta({ id: "ListenerDeleteWork" });
export type ListenerDeleteWork = z.infer<typeof listenerDeleteWork>;

export const listenerWork = z
  .discriminatedUnion("action", [listenerApplyWork, listenerDeleteWork])
  .meta({ id: "ListenerWork" });
export type ListenerWork = z.infer<typeof listenerWork>;

export const claimWorkResponse = z
  .object({ work: listenerWork.nullable() })
  .meta({ id: "ListenerWorkAnswer" });

/** A report on leased work: without `status` it renews the lease; `report_id` makes it idempotent. */
const reportOf = <const S extends readonly [string, ...string[]]>(statuses: S) =>
  z.object({
    replica_id: replicaId,
    report_id: z.string().min(1).max(100),
    status: z.enum(statuses).optional(),
    message: z.string().max(4096).optional(),
    lines: z.array(z.string().max(4096)).max(500).default([]),
  });

export const listenerReportBody = reportOf(["DEPLOYED", "DEPLOY_FAILED"]).meta({
  id: "ListenerReport",
});
export type ListenerReportInput = z.infer<typeof listenerReportBody>;

/** Who holds the work's lease after a report, and until when (null once it is done). */
const leaseState = { lease_owner: z.string().nullable(), lease_expires_at: timestamp.nullable() };

export const listenerReportAnswer = z
  .object({ revision_id: uuid, status: z.string(), remote_reconciled: z.boolean(), ...leaseState })
  .meta({ id: "ListenerReportAnswer" });
export type ListenerReportAnswer = z.infer<typeof listenerReportAnswer>;

export const listenerRevisionParams = z.object({ revision_id: uuid });

export const listenerDeletionReportBody = reportOf(["DELETED", "DELETE_FAILED"]).meta({
  id: "ListenerDeletionReport",
});
export type ListenerDeletionReportInput = z.infer<typeof listenerDeletionReportBody>;

export const listenerDeletionAnswer = z
  .object({ deployment_id: uuid, status: z.enum(["AWAITING_DELETE", "DELETED"]), ...leaseState })
  .meta({ id: "ListenerDeletionAnswer" });
export type ListenerDeletionAnswer = z.infer<typeof listenerDeletionAnswer>;

export const listenerDeploymentParams = z.object({ deployment_id: uuid });
