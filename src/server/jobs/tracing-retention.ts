import type { Db } from "@/server/db";
import { describeError, log } from "@/server/log";
import { sweepExpiredAttachments } from "@/server/services/tracing/attachments";
import { maintainRunPartitions, retentionCutoff } from "@/server/services/tracing/partitions";

// The worker's tracing upkeep, hourly: the next days' run partitions made ahead, partitions
// past HANGAR_TRACING_RETENTION_DAYS dropped whole, and their days' attachments deleted from the
// storage backend (a storage failure never stops the partition upkeep). Safe on several workers.

const HOUR_MS = 60 * 60 * 1000;

export function serveTracingRetention(db: Db): { stop(): void } {
  const pass = () =>
    maintainRunPartitions(db)
      .then((dropped) => {
        if (dropped.length) log.info("tracing partitions dropped", { partitions: dropped });
      })
      .catch((error: unknown) => log.warn("tracing partition upkeep failed", describeError(error)))
      .then(() => sweepExpiredAttachments(retentionCutoff(new Date())))
      .then((removed) => {
        if (removed) log.info("tracing attachments deleted", { attachments: removed });
      })
      .catch((error: unknown) =>
        log.warn("tracing attachment upkeep failed", describeError(error)),
      );
  void pass();
  const timer = setInterval(pass, HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
