import type { Readable } from "node:stream";
import { env } from "@/env";
import { cutIndex, harmless, withCutMark } from "@/lib/log-text";

// A builder's output (bytes, as they arrive) split into lines without ever holding more than the
// longest line kept plus the chunk at hand: a line longer than `maxLine` keeps its start, and
// the rest is only counted as it streams by, so output without newlines costs no memory.
// UTF-8 is decoded across chunk boundaries (a character split between two chunks arrives
// whole; invalid bytes become U+FFFD); a line ends at LF, and a CR right before it is dropped.

export type LineSink = (
  /** The line's start: all of it, or at least its first `maxLine` characters. */
  start: string,
  /** The whole line's length in characters (more than `start` holds when it was cut). */
  length: number,
) => void;

export class LineReader {
  private readonly decoder = new TextDecoder("utf-8");
  private start = "";
  private length = 0;
  private open = false;
  private endsWithCr = false;

  constructor(
    private readonly maxLine: number,
    private readonly onLine: LineSink,
  ) {}

  /** Characters of the current line held now: never more than `maxLine`. */
  get holding(): number {
    return this.start.length;
  }

  push(chunk: Uint8Array): void {
    this.take(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: its last line, if it had no newline. */
  end(): void {
    this.take(this.decoder.decode());
    if (this.open) this.finish();
  }

  private take(text: string): void {
    let from = 0;
    while (from < text.length) {
      const newline = text.indexOf("\n", from);
      const to = newline === -1 ? text.length : newline;
      if (to > from) this.append(text, from, to);
      if (newline === -1) return;
      this.finish();
      from = newline + 1;
    }
  }

  private append(text: string, from: number, to: number): void {
    this.open = true;
    this.endsWithCr = text.charCodeAt(to - 1) === 13;
    // Once anything of the line was not kept, nothing after it is either (no gaps).
    if (this.length === this.start.length) {
      const room = this.maxLine - this.start.length;
      if (room > 0) this.start += text.slice(from, cutIndex(text, room, from, to));
    }
    this.length += to - from;
  }

  private finish(): void {
    let { start, length } = this;
    if (this.endsWithCr) {
      if (length === start.length) start = start.slice(0, -1);
      length -= 1;
    }
    this.start = "";
    this.length = 0;
    this.open = false;
    this.endsWithCr = false;
    this.onLine(start, length);
  }
}

/** Every line of `stream` as the build log keeps it: harmless, cut to `maxLine` with a mark. */
export function readLogLines(
  stream: Readable,
  onLine: (line: string) => void,
  maxLine = env.HANGAR_LOG_MAX_LINE,
): void {
  const reader = new LineReader(maxLine, (start, length) =>
    onLine(harmless(withCutMark(start, length, maxLine))),
  );
  stream.on("data", (chunk: Uint8Array) => reader.push(chunk));
  stream.on("end", () => reader.end());
}
