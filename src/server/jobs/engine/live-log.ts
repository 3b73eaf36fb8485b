import { env } from "@/env";
import type { RevisionLogStream } from "@/generated/prisma/client";
import { harmlessLine } from "@/lib/log-text";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import { appendLogs, storedLogSize } from "@/server/services/revisions/logs-append";

// A step's output as it happens: lines are buffered and written in order, a batch at a time (at
// most every FLUSH_MS), so a builder printing thousands of lines costs a few inserts, and the
// dashboard's live log and the deploy client's --follow see them within a second.
//
// Bounded: the revision's log of the stream keeps at most `maxLines` lines and `maxBytes` bytes,
// counted from what is already stored (a retried step goes on from there), each line harmless
// and cut to `maxLine`. Past either cap nothing more of the output is kept, only counted; the
// step goes on, and its final flush writes one line saying how much was not kept. Whatever the
// output, this holds no more than the cap in memory.

const FLUSH_MS = 250;

export interface LiveLogLimits {
  maxLines: number;
  maxBytes: number;
  maxLine: number;
}

const configuredLimits = (): LiveLogLimits => ({
  maxLines: env.HANGAR_BUILD_LOG_MAX_LINES,
  maxBytes: env.HANGAR_BUILD_LOG_MAX_BYTES,
  maxLine: env.HANGAR_LOG_MAX_LINE,
});

export interface LiveLog {
  log(lines: string[]): void;
  /**
   * Writes what is buffered, then (once) the line saying what was not kept; the step's final
   * move comes after it, so no line is out of order.
   */
  flush(): Promise<void>;
}

const count = (n: number) => n.toLocaleString("en-US");

export const notKeptLine = (lines: number, bytes: number, limits: LiveLogLimits) =>
  `… ${count(lines)} more lines (${count(bytes)} bytes) of output were not kept: a revision's build log keeps at most ${count(limits.maxLines)} lines and ${count(limits.maxBytes)} bytes (HANGAR_BUILD_LOG_MAX_LINES, HANGAR_BUILD_LOG_MAX_BYTES). The build went on.`;

export async function liveLog(
  db: DbClient,
  revisionId: string,
  stream: RevisionLogStream,
  limits: LiveLogLimits = configuredLimits(),
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
      for (const raw of lines) {
        const line = harmlessLine(raw, limits.maxLine);
        const bytes = Buffer.byteLength(line);
        // Once full, full: a later short line is not kept either, so the log has no gaps.
        full ||= kept.lines + 1 > limits.maxLines || kept.bytes + bytes > limits.maxBytes;
        if (full) {
          notKept.lines += 1;
          notKept.bytes += bytes;
          continue;
        }
        kept.lines += 1;
        kept.bytes += bytes;
        buffered.push(line);
      }
      if (buffered.length) timer ??= setTimeout(write, FLUSH_MS);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      if (notKept.lines > 0) {
        buffered.push(notKeptLine(notKept.lines, notKept.bytes, limits));
        notKept.lines = 0;
        notKept.bytes = 0;
      }
      await write();
    },
  };
}
