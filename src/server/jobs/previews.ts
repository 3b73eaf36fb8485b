import type PgBoss from "pg-boss";
import { env } from "@/env";
import type { Db } from "@/server/db";
import { describeError, log } from "@/server/log";
import { reportPreviewStatus } from "@/server/services/previews/commit-status";
import { expirePreviews } from "@/server/services/previews/expiry";
import { QUEUES, previewStatusJob } from "@/server/services/revisions/queue";

// The worker's preview jobs (contract 5.6): commit statuses sent to the code host, and the
// periodic sweep of previews past their ttl_hours.

type WorkOptions = PgBoss.WorkOptions & { includeMetadata: true };

export async function servePreviews(
  ctx: { db: Db; boss: PgBoss },
  work: WorkOptions,
): Promise<{ statusId: string; stop(): void }> {
  const { db, boss } = ctx;
  const statusId = await boss.work(QUEUES.previewStatus, work, async ([job]) => {
    const { revisionId } = previewStatusJob.parse(job!.data);
    try {
      const status = await reportPreviewStatus(db, revisionId);
      if (status)
        log.info("preview commit status sent", { revision_id: revisionId, state: status.state });
    } catch (error) {
      // Retried by the queue; the code host's answer is in the message, never a credential.
      log.warn("preview commit status failed", {
        revision_id: revisionId,
        ...describeError(error),
      });
      throw error;
    }
  });
  await boss.work(QUEUES.previewExpiry, work, async () => {
    const deleted = await expirePreviews(db);
    if (deleted.length) log.info("previews expired", { deployment_ids: deleted });
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
  return { statusId, stop: () => clearInterval(timer) };
}
