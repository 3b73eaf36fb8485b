import type { Listener } from "@/generated/prisma/client";
import { env } from "@/env";
import type { ClaimWorkInput, ListenerApplyWork, ListenerWork } from "@/schemas/listeners";
import { decrypt } from "@/server/crypto";
import type { Db } from "@/server/db";
import { appendLogs } from "../revisions/logs-append";
import { claimDeletion } from "./deletion-work";
import { subscribeToWork } from "./work-events";

// The listener's long poll: one revision (or deployment to delete) at a time, under a lease, so
// two replicas of a listener never both work on it; a lease that is not renewed (a killed
// replica) expires and the work is handed out again.

interface Claimed {
  id: string;
  previous: string | null;
  lease_expires_at: Date;
}

async function claimOne(db: Db, listenerId: string, replicaId: string): Promise<Claimed | null> {
  const rows = await db.$queryRaw<Claimed[]>`
    WITH picked AS (
      SELECT r.id, r.lease_owner AS previous
      FROM revisions r JOIN deployments d ON d.id = r.deployment_id
      WHERE d.listener_id = ${listenerId}::uuid
        AND r.status = 'DEPLOYING'
        AND r.listener_objects_encrypted IS NOT NULL
        AND (r.lease_expires_at IS NULL OR r.lease_expires_at < now() OR r.lease_owner = ${replicaId})
      ORDER BY r.created_at, r.id
      LIMIT 1
      FOR UPDATE OF r SKIP LOCKED
    )
    UPDATE revisions SET
      lease_owner = ${replicaId},
      lease_expires_at = now() + make_interval(secs => ${env.HANGAR_LISTENER_LEASE_SECONDS}::double precision),
      updated_at = now()
    FROM picked WHERE revisions.id = picked.id
    RETURNING revisions.id, picked.previous, revisions.lease_expires_at`;
  return rows[0] ?? null;
}

async function toWork(db: Db, claimed: Claimed): Promise<ListenerApplyWork | null> {
  const revision = await db.revision.findUnique({
    where: { id: claimed.id },
    include: { deployment: { select: { name: true } } },
  });
  if (!revision?.listenerObjectsEncrypted) return null;
  const objects = JSON.parse(decrypt(revision.listenerObjectsEncrypted)) as Record<
    string,
    unknown
  >[];
  const namespace = objects
    .map((o) => (o.metadata as { namespace?: string } | undefined)?.namespace)
    .find(Boolean);
  return {
    action: "apply",
    revision_id: revision.id,
    deployment_id: revision.deploymentId,
    deployment_name: revision.deployment.name,
    revision_number: revision.number,
    namespace: namespace ?? "",
    lease_expires_at: claimed.lease_expires_at.toISOString(),
    objects,
  };
}

/**
 * Hands the calling replica the next revision to apply or deployment to delete, waiting up to
 * `wait_seconds` (woken by NOTIFY when there is new work). `null` when there is none yet: poll
 * again.
 */
export async function claimWork(
  db: Db,
  listener: Listener,
  input: ClaimWorkInput,
  signal?: AbortSignal,
): Promise<{ work: ListenerWork | null }> {
  // Capped, so a polling listener is seen more often than it would be called offline.
  const waitSeconds = Math.min(
    input.wait_seconds ?? env.HANGAR_LISTENER_POLL_SECONDS,
    env.HANGAR_LISTENER_POLL_SECONDS,
  );
  const deadline = Date.now() + waitSeconds * 1000;
  const events = await subscribeToWork(listener.id);
  try {
    for (;;) {
      // Gone (client away, token revoked): nothing is leased that nobody would apply.
      if (signal?.aborted) return { work: null };
      const claimed = await claimOne(db, listener.id, input.replica_id);
      if (claimed) {
        if (claimed.previous !== input.replica_id)
          await appendLogs(db, claimed.id, "deploy", [
            claimed.previous
              ? `Listener replica ${input.replica_id} resumes the revision (the lease of ${claimed.previous} expired)`
              : `Listener replica ${input.replica_id} took the revision`,
          ]);
        return { work: await toWork(db, claimed) };
      }
      const deletion = await claimDeletion(db, listener.id, input.replica_id);
      if (deletion) return { work: deletion };
      const left = deadline - Date.now();
      if (left <= 0) return { work: null };
      await events.next(left, signal);
    }
  } finally {
    events.close();
  }
}
