import { setTimeout as sleep } from "node:timers/promises";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import { subscribeToStop } from "@/server/services/revisions/stop-events";

// What stops a build: its revision leaving BUILDING (interrupted, or deleted with its
// deployment), noticed at once through a notification and at worst within a second by reading
// the status; and the build's time limit (HANGAR_BUILD_TIMEOUT_SECONDS).

const LOOK_MS = 1000;

export interface BuildWatch {
  /** Aborted when the build must stop. */
  signal: AbortSignal;
  /** The time limit stopped it (rather than the revision). */
  timedOut(): boolean;
  stop(): Promise<void>;
}

export function watchBuild(db: DbClient, revisionId: string, timeoutSeconds: number): BuildWatch {
  const controller = new AbortController();
  const done = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutSeconds * 1000);

  const stillBuilding = async () => {
    const row = await db.revision
      .findUnique({ where: { id: revisionId }, select: { status: true } })
      .catch((error: unknown) => {
        log.warn("build watch could not read the revision", describeError(error));
        return undefined;
      });
    return row === undefined || row?.status === "BUILDING";
  };

  const loop = (async () => {
    const subscription = await subscribeToStop(revisionId).catch(() => null);
    try {
      while (!done.signal.aborted && !controller.signal.aborted) {
        if (subscription) await subscription.next(LOOK_MS, done.signal);
        else await sleep(LOOK_MS, undefined, { signal: done.signal }).catch(() => undefined);
        if (!done.signal.aborted && !(await stillBuilding())) controller.abort();
      }
    } finally {
      subscription?.close();
    }
  })();

  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    async stop() {
      clearTimeout(timer);
      done.abort();
      await loop;
    },
  };
}
