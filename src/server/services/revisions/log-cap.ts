import { env } from "@/env";
import type { RevisionLogStream } from "@/generated/prisma/client";
import { harmlessLine } from "@/lib/log-text";
import type { DbClient } from "@/server/db";
import { appendLogs, storedLogSize } from "./logs-append";

// The per-revision bound on a log stream, whoever writes it: the worker's build steps (through
// jobs/engine/live-log.ts) and a listener's deploy reports. A stream keeps at most `maxLines`
// lines and `maxBytes` bytes, each line harmless and cut to `maxLine`; past either cap nothing
// more is kept (once full, full: the log has no gaps), and one line says how much was not.

export interface LogLimits {
  maxLines: number;
  maxBytes: number;
  maxLine: number;
}

export const configuredLogLimits = (): LogLimits => ({
  maxLines: env.HANGAR_BUILD_LOG_MAX_LINES,
  maxBytes: env.HANGAR_BUILD_LOG_MAX_BYTES,
  maxLine: env.HANGAR_LOG_MAX_LINE,
});

const count = (n: number) => n.toLocaleString("en-US");
const NOT_KEPT_PREFIX = "… ";
const NOT_KEPT_MARK = "of output were not kept: a revision's";

export const notKeptLine = (
  stream: RevisionLogStream,
  lines: number,
  bytes: number,
  limits: LogLimits,
) =>
  `${NOT_KEPT_PREFIX}${count(lines)} more lines (${count(bytes)} bytes) ${NOT_KEPT_MARK} ${stream} log keeps at most ${count(limits.maxLines)} lines and ${count(limits.maxBytes)} bytes (HANGAR_BUILD_LOG_MAX_LINES, HANGAR_BUILD_LOG_MAX_BYTES).${stream === "build" ? " The build went on." : " Later lines are not kept either; the deploy went on."}`;

/** Counts `lines` against what the stream keeps: the lines that fit, and what did not. */
export function fitLines(
  kept: { lines: number; bytes: number },
  lines: string[],
  limits: LogLimits,
  full = false,
) {
  const fitting: string[] = [];
  const notKept = { lines: 0, bytes: 0 };
  for (const raw of lines) {
    const line = harmlessLine(raw, limits.maxLine);
    const bytes = Buffer.byteLength(line);
    full ||= kept.lines + 1 > limits.maxLines || kept.bytes + bytes > limits.maxBytes;
    if (full) {
      notKept.lines += 1;
      notKept.bytes += bytes;
      continue;
    }
    kept.lines += 1;
    kept.bytes += bytes;
    fitting.push(line);
  }
  return { fitting, notKept, full };
}

/**
 * Appends what fits of `lines` to the revision's `stream`, then, the first time something did
 * not fit, the line saying so (later writes that do not fit add nothing: it stays the last).
 * Callers hold the revision's row lock, so writes of one revision do not interleave.
 */
export async function appendWithinCap(
  db: DbClient,
  revisionId: string,
  stream: RevisionLogStream,
  lines: string[],
  limits: LogLimits = configuredLogLimits(),
): Promise<void> {
  if (lines.length === 0) return;
  const kept = await storedLogSize(db, revisionId, stream);
  const { fitting, notKept } = fitLines(kept, lines, limits);
  if (notKept.lines > 0) {
    const [last] = await db.revisionLog.findMany({
      where: { revisionId, stream },
      orderBy: { seq: "desc" },
      take: 1,
      select: { line: true },
    });
    const marked = last?.line.startsWith(NOT_KEPT_PREFIX) && last.line.includes(NOT_KEPT_MARK);
    if (!marked) fitting.push(notKeptLine(stream, notKept.lines, notKept.bytes, limits));
  }
  await appendLogs(db, revisionId, stream, fitting);
}
