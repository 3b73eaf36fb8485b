import { z } from "zod";
import { page, timestamp, uuid } from "./common";

// The workspace's audit log: every mutation, newest first.

export const auditEvent = z
  .object({
    id: uuid,
    action: z.string().meta({ example: "api_key.create" }),
    target_type: z.string(),
    target_id: z.string(),
    actor_user_id: uuid.nullable(),
    actor_email: z.string().nullable(),
    actor_api_key_id: uuid.nullable(),
    actor_api_key_prefix: z.string().nullable(),
    /** The key an action was taken with: the actor, not the user who created the key. */
    actor_api_key_name: z.string().nullable(),
    /** The target's name when it has one (a deployment, a member's email, ...). */
    target_name: z.string().nullable(),
    data: z.unknown(),
    request_id: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "AuditEvent" });
export type AuditEvent = z.infer<typeof auditEvent>;

export const auditEventPage = page(auditEvent).meta({ id: "AuditEventPage" });

export const listAuditEventsInput = z.object({
  limit: z.number().int().min(1).max(100).default(20),
  offset: z.number().int().min(0).default(0),
  action: z.string().trim().min(1).max(100).optional(),
  target_id: z.string().trim().min(1).max(100).optional(),
});
export type ListAuditEventsInput = z.infer<typeof listAuditEventsInput>;
