import type { Listener as ListenerRow } from "@/generated/prisma/client";
import { env } from "@/env";
import type { ComputeConfig, Listener } from "@/schemas/listeners";
import { forbidden } from "@/server/errors";

/** Online while it was heard from within HANGAR_LISTENER_OFFLINE_SECONDS. */
export function isOnline(lastSeenAt: Date | null, now = Date.now()): boolean {
  return !!lastSeenAt && now - lastSeenAt.getTime() < env.HANGAR_LISTENER_OFFLINE_SECONDS * 1000;
}

export const toListener = (row: ListenerRow): Listener => ({
  id: row.id,
  compute_type: "k8s",
  compute_id: row.computeId,
  compute_config: row.computeConfig as ComputeConfig,
  version: row.version,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  last_seen_at: row.lastSeenAt?.toISOString() ?? null,
  status: isOnline(row.lastSeenAt) ? "online" : "offline",
});

/** Listeners belong to self-hosted installations (the reference platform answers 403 too). */
export function requireSelfHosted(): void {
  if (env.HANGAR_MODE !== "self_hosted")
    throw forbidden("Listeners need a self-hosted Hangar (HANGAR_MODE=self_hosted).");
}
