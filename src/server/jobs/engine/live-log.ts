import type { RevisionLogStream } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import { appendLogs } from "@/server/services/revisions/logs-append";

// A step's output as it happens: lines are buffered and written in order, a batch at a time (at
// most every FLUSH_MS), so a builder printing thousands of lines costs a few inserts, and the
// dashboard's live log and the deploy client's --follow see them within a second.

const FLUSH_MS = 250;

export interface LiveLog {
  log(lines: string[]): void;
  /** Writes what is buffered; the step's final move comes after it, so no line is out of order. */
  flush(): Promise<void>;
}

export function liveLog(db: DbClient, revisionId: string, stream: RevisionLogStream): LiveLog {
  let buffered: string[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const write = () => {
    timer = null;
    const lines = buffered;
    buffered = [];
    writing = writing.then(() =>
      appendLogs(db, revisionId, stream, lines).catch((error: unknown) =>
        log.warn("build log lines lost", { revision_id: revisionId, ...describeError(error) }),
      ),
    );
    return writing;
  };
  return {
    log(lines) {
      if (!lines.length) return;
      buffered.push(...lines);
      timer ??= setTimeout(write, FLUSH_MS);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      await write();
    },
  };
}
