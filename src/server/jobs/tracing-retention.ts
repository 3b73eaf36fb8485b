import type { Db } from "@/server/db";
import { describeError, log } from "@/server/log";
import { maintainRunPartitions } from "@/server/services/tracing/partitions";

// The worker's tracing upkeep, hourly: the next days' run partitions made ahead, partitions
// past HANGAR_TRACING_RETENTION_DAYS dropped whole. Safe on several workers at once.

const HOUR_MS = 60 * 60 * 1000;

export function serveTracingRetention(db: Db): { stop(): void } {
  const pass = () =>
    maintainRunPartitions(db)
      .then((dropped) => {
        if (dropped.length) log.info("tracing partitions dropped", { partitions: dropped });
      })
      .catch((error: unknown) => log.warn("tracing partition upkeep failed", describeError(error)));
  void pass();
  const timer = setInterval(pass, HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
