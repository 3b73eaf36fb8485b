import type { RunStats, RunStatsQuery, StatsFigures, StatsIntervalName } from "@/schemas/tracing";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { invalidField } from "@/server/errors";
import { retentionCutoff } from "./partitions";
import { runStore, type RunStatsRow } from "./run-store";
import { requireOwnProjects } from "./projects";
import { instantOf, runConditionsOf } from "./runs-read";

// Run stats per project and time range (POST /runs/stats, the dashboard's chart): counts, errors,
// latency p50/p99 and tokens, in total and per bucket, from one query over the day partitions.
// Over the runs the filters select (all runs by default, as the SDK's getRunStats; the dashboard
// asks for root runs, whose latency is a whole trace's). Latency counts only runs that ended.

const STEP_MS: Record<StatsIntervalName, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};
/** More buckets than this is a 422: the caller chooses a longer interval or a shorter range. */
export const MAX_STATS_BUCKETS = 1500;

/** Minutes up to 3 hours, hours up to 7 days, else days: never more than a few hundred. */
export function autoInterval(rangeMs: number): StatsIntervalName {
  if (rangeMs <= 3 * STEP_MS.hour) return "minute";
  if (rangeMs <= 7 * STEP_MS.day) return "hour";
  return "day";
}

/** The UTC start of the bucket an instant falls in (minute, hour and day align on epoch). */
const bucketOf = (ms: number, step: number) => Math.floor(ms / step) * step;
/** As every time the tracing API answers: ISO 8601 UTC with microseconds. */
const bucketIso = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "000Z");

function figures(row: RunStatsRow | undefined): StatsFigures {
  const runs = row?.run_count ?? 0;
  return {
    run_count: runs,
    error_count: row?.error_count ?? 0,
    error_rate: runs > 0 ? row!.error_count / runs : null,
    latency_p50: row?.latency_p50 ?? null,
    latency_p99: row?.latency_p99 ?? null,
    prompt_tokens: row?.prompt_tokens ?? 0,
    completion_tokens: row?.completion_tokens ?? 0,
    total_tokens: row?.total_tokens ?? 0,
  };
}

export async function runStats(
  db: DbClient,
  actor: Actor,
  query: RunStatsQuery,
  now = new Date(),
): Promise<RunStats> {
  await requireOwnProjects(db, actor, query.session);

  // Without bounds: everything retention keeps, up to now (the bounds prune the partitions).
  const end = instantOf(query.end_time, "end_time") ?? now.toISOString();
  const start = instantOf(query.start_time, "start_time") ?? retentionCutoff(now).toISOString();
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  if (startMs >= endMs)
    throw invalidField(["body", "end_time"], "end_time must be after start_time", "value_error");
  const interval = query.interval ?? autoInterval(endMs - startMs);
  const step = STEP_MS[interval];
  const first = bucketOf(startMs, step);
  const count = Math.ceil((endMs - first) / step);
  if (count > MAX_STATS_BUCKETS)
    throw invalidField(
      ["body", "interval"],
      `${count} ${interval} buckets is more than ${MAX_STATS_BUCKETS}: choose a longer interval or a shorter range`,
      "value_error",
    );

  const rows = await runStore.runStats(
    db,
    {
      ...runConditionsOf(actor, query),
      startedFrom: start,
      startedBefore: end,
    },
    interval,
  );
  const totals = rows.find((r) => r.bucket === null);
  const byBucket = new Map(rows.filter((r) => r.bucket !== null).map((r) => [r.bucket!, r]));
  const buckets = Array.from({ length: count }, (_, i) => {
    const at = bucketIso(first + i * step);
    return { start_time: at, ...figures(byBucket.get(at)) };
  });
  return {
    ...figures(totals),
    last_run_start_time: totals?.last_run_start_time ?? null,
    interval,
    start_time: start,
    end_time: end,
    buckets,
  };
}
