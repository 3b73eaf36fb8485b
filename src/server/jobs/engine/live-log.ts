import type { RevisionLogStream } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import {
  configuredLogLimits,
  fitLines,
  notKeptLine,
  type LogLimits,
} from "@/server/services/revisions/log-cap";
import { appendLogs, storedLogSize } from "@/server/services/revisions/logs-append";

// A step's output as it happens: lines are buffered and written in order, a batch at a time (at
// most every FLUSH_MS), so a builder printing thousands of lines costs a few inserts, and the
// dashboard's live log and the deploy client's --follow see them within a second.
//
// Bounded (services/revisions/log-cap.ts): counted from what is already stored (a retried step
// goes on from there); past the cap nothing more of the output is kept, only counted; the step
// goes on, and its final flush writes one line saying how much was not kept. Whatever the
// output, this holds no more than the cap in memory.

const FLUSH_MS = 250;

export interface LiveLog {
  log(lines: string[]): void;
  /**
   * Writes what is buffered, then (once) the line saying what was not kept; the step's final
   * move comes after it, so no line is out of order.
   */
  flush(): Promise<void>;
}

export async function liveLog(
  db: DbClient,
  revisionId: string,
  stream: RevisionLogStream,
  limits: LogLimits = configuredLogLimits(),
): Promise<LiveLog> {
  const kept = await storedLogSize(db, revisionId, stream);
  const notKept = { lines: 0, bytes: 0 };
  let full = false;
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
      const fitted = fitLines(kept, lines, limits, full);
      full = fitted.full;
      notKept.lines += fitted.notKept.lines;
      notKept.bytes += fitted.notKept.bytes;
      buffered.push(...fitted.fitting);
      if (buffered.length) timer ??= setTimeout(write, FLUSH_MS);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      if (notKept.lines > 0) {
        buffered.push(notKeptLine(stream, notKept.lines, notKept.bytes, limits));
        notKept.lines = 0;
        notKept.bytes = 0;
      }
      await write();
    },
  };
}
