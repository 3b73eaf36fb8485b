import { env } from "@/env";
import type { DbClient } from "@/server/db";

/**
 * Deployments of listeners not heard from for HANGAR_LISTENER_OFFLINE_SECONDS show UNKNOWN
 * instead of a stale READY (self-hosted servers run this periodically, src/instrumentation.ts). A listener's next call brings them
 * back (auth/listener-tokens.ts). Answers how many deployments it marked.
 */
export async function markOfflineListenersDeployments(db: DbClient): Promise<number> {
  return db.$executeRaw`
    UPDATE deployments d SET status = 'UNKNOWN', updated_at = now()
    FROM listeners l
    WHERE d.listener_id = l.id
      AND d.status = 'READY'
      AND (l.last_seen_at IS NULL
           OR l.last_seen_at < now() - make_interval(secs => ${env.HANGAR_LISTENER_OFFLINE_SECONDS}::double precision))`;
}
