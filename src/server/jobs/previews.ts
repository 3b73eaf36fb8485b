import type PgBoss from "pg-boss";
import { env } from "@/env";
import type { Db } from "@/server/db";
import { describeError, log } from "@/server/log";
import { expirePreviews } from "@/server/services/previews/expiry";
import { forgetSentStatuses, postQueuedStatuses } from "@/server/services/previews/status-outbox";
import { QUEUES, previewStatusJob } from "@/server/services/revisions/queue";

// The worker's preview jobs (contract 5.6): commit statuses sent to the code host (each job
// sends its commit's unsent statuses in order: previews/status-outbox.ts), and the periodic
// sweep of previews past their ttl_hours (and of statuses long sent).

type WorkOptions = PgBoss.WorkOptions & { includeMetadata: true };

export async function servePreviews(
  ctx: { db: Db; boss: PgBoss },
  work: WorkOptions,
): Promise<{ statusId: string; stop(): void }> {
  const { db, boss } = ctx;
  let statusSlot = "";
  statusSlot = await boss.work(QUEUES.previewStatus, work, async ([job]) => {
    const { statusId } = previewStatusJob.parse(job!.data);
    try {
      if (!statusId) return;
      for (const sent of await postQueuedStatuses(db, statusId))
        log.info("preview commit status sent", {
          revision_id: sent.revisionId,
          seq: sent.seq,
          state: sent.state,
        });
    } catch (error) {
      // Retried by the queue; the code host's answer is in the message, never a credential.
      log.warn("preview commit status failed", { status_id: statusId, ...describeError(error) });
      throw error;
    } finally {
      // More may be waiting (a move queues one per state): fetch again at once, not next poll.
      if (statusSlot) boss.notifyWorker(statusSlot);
    }
  });
  await boss.work(QUEUES.previewExpiry, work, async () => {
    const deleted = await expirePreviews(db);
    if (deleted.length) log.info("previews expired", { deployment_ids: deleted });
    await forgetSentStatuses(db);
  });
  // Every worker offers the sweep; pg-boss keeps one job per interval (singletonSeconds).
  const seconds = env.HANGAR_PREVIEW_SWEEP_SECONDS;
  const offer = () =>
    boss
      .send(QUEUES.previewExpiry, {}, { singletonKey: "sweep", singletonSeconds: seconds })
      .catch((error: unknown) => log.warn("preview sweep not queued", describeError(error)));
  void offer();
  const timer = setInterval(offer, seconds * 1000);
  timer.unref();
  return { statusId: statusSlot, stop: () => clearInterval(timer) };
}
