import { setTimeout as sleep } from "node:timers/promises";
import { describeError, log } from "@/server/log";
import { jobWake } from "@/server/services/revisions/queue";

/** How long one wait lasts before the listener subscribes anew (a harmless extra wake). */
const WAIT_MS = 60_000;

export interface JobListener {
  stop(): Promise<void>;
}

/**
 * Calls `wake` on every job-wake notification for `queue`; listening once this resolves. It
 * subscribes anew after each notification, before closing the old subscription, so a lost
 * listening connection is reopened and nothing sent in between is missed; while it cannot
 * listen (retried every `retryMs`), polling covers.
 */
export async function listenForJobs(
  queue: string,
  wake: () => void,
  retryMs: number,
): Promise<JobListener> {
  const stopping = new AbortController();
  const subscribe = () =>
    jobWake.subscribe(queue).catch((error: unknown) => {
      log.warn("job wake listener failed, polling meanwhile", describeError(error));
      return null;
    });
  let subscription = await subscribe();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      if (!subscription) {
        await sleep(retryMs, undefined, { signal: stopping.signal }).catch(() => undefined);
        if (!stopping.signal.aborted) subscription = await subscribe();
        continue;
      }
      await subscription.next(WAIT_MS, stopping.signal);
      const following = await subscribe();
      subscription.close();
      subscription = following;
      if (!stopping.signal.aborted) wake();
    }
    subscription?.close();
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
