import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineReader, readLogLines } from "../../../src/server/jobs/builder/images/line-reader";
import { runInGroup } from "../../../src/server/jobs/builder/images/process-group";

// A builder's output split into lines as it streams, holding at most the longest line kept and
// the chunk at hand: output without a newline costs no memory, characters split across chunks
// arrive whole, CRLF ends a line as LF does.

/** The lines a reader of `maxLine` makes of `chunks`, with how much it held after each chunk. */
function read(chunks: Uint8Array[], maxLine: number) {
  const lines: { start: string; length: number }[] = [];
  const reader = new LineReader(maxLine, (start, length) => lines.push({ start, length }));
  let held = 0;
  for (const chunk of chunks) {
    reader.push(chunk);
    held = Math.max(held, reader.holding);
  }
  reader.end();
  return { lines, held };
}

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe("LineReader", () => {
  it("never holds more than the longest line kept, however long a line without newline runs", () => {
    const chunk = bytes("z".repeat(64 * 1024));
    const chunks = Array.from({ length: 128 }, () => chunk); // 8 MiB, no newline
    const { lines, held } = read([...chunks, bytes("\nnext\n")], 4096);
    expect(held).toBeLessThanOrEqual(4096);
    expect(lines).toEqual([
      { start: "z".repeat(4096), length: 8 * 1024 * 1024 },
      { start: "next", length: 4 },
    ]);
  });

  it("decodes a character split between chunks whole, at every split", () => {
    const text = "é€😀𝄞 end\n";
    const all = Buffer.from(text);
    for (let at = 1; at < all.length; at++) {
      const { lines } = read([all.subarray(0, at), all.subarray(at)], 100);
      expect(lines, `split at byte ${at}`).toEqual([{ start: "é€😀𝄞 end", length: 10 }]);
    }
    // One byte at a time, too; invalid bytes become U+FFFD.
    const { lines } = read(
      [...all, 0xff, 0x0a].map((b) => Uint8Array.of(b)),
      100,
    );
    expect(lines).toEqual([
      { start: "é€😀𝄞 end", length: 10 },
      { start: "\ufffd", length: 1 },
    ]);
  });

  it("ends lines at LF and CRLF (split between chunks too); a lone CR stays in the line", () => {
    const { lines } = read(
      [bytes("one\r"), bytes("\ntwo\r\nthree\rstill three\n\n"), bytes("last")],
      100,
    );
    expect(lines.map((l) => l.start)).toEqual(["one", "two", "three\rstill three", "", "last"]);
    expect(lines.map((l) => l.length)).toEqual([3, 3, 17, 0, 4]);
  });

  it("counts a cut line's length without its CRLF, and never splits a surrogate pair", () => {
    const { lines } = read([bytes(`${"a".repeat(20)}\r\n`), bytes(`ab${"😀".repeat(10)}\n`)], 9);
    expect(lines).toEqual([
      { start: "a".repeat(9), length: 20 },
      // 2 + 3 pairs = 8 units: a ninth would split the fourth pair.
      { start: `ab${"😀".repeat(3)}`, length: 22 },
    ]);
  });
});

describe("readLogLines", () => {
  it("gives a stream's lines harmless and cut with a mark", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    readLogLines(stream, (line) => lines.push(line), 256);
    stream.write("\x1b]0;pwned\x07\x1b[2J title and clear screen\r\n");
    stream.write("x".repeat(1000));
    stream.end("\nbell\x07 nul\x00 tab\tkept");
    await new Promise((resolve) => stream.on("end", resolve));
    expect(lines[0]).toBe("␛]0;pwned␇␛[2J title and clear screen");
    expect(lines[1]!.length).toBeLessThanOrEqual(256);
    expect(lines[1]).toMatch(/^x+… \[cut: 1,000 characters, [\d,]+ not kept\]$/);
    expect(lines[2]).toBe("bell␇ nul␀ tab\tkept");
  });

  it("reads a real process that prints 8 MiB without a newline, then escape sequences", async () => {
    const lines: string[] = [];
    const run = await runInGroup(
      "sh",
      ["-c", "head -c 8388608 /dev/zero | tr '\\0' a; printf '\\n\\033]0;t\\007done\\r\\n'"],
      {
        env: { PATH: process.env.PATH! },
        signal: new AbortController().signal,
        onLine: (l) => lines.push(l),
      },
    );
    expect(run.code).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.length).toBeLessThanOrEqual(16_384);
    expect(lines[0]).toMatch(/^a+… \[cut: 8,388,608 characters, 8,372,273 not kept\]$/);
    expect(lines[1]).toBe("␛]0;t␇done");
  });
});
