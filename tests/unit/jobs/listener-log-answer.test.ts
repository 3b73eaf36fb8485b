import { describe, expect, it } from "vitest";
import { LOG_LINE_TEXT_MAX } from "../../../src/schemas/listener-logs";
import type { PodLogLine } from "../../../src/server/cluster/pod-logs";
import { fitAnswer } from "../../../src/server/jobs/listener/logs";

// A listener's answer to a log request stays under Hangar's 1 MiB body limit: it keeps the end
// the request names (newest for a read back from now, oldest for a read forward) and says so.

const line = (n: number, text = `line ${n}`): PodLogLine => ({
  key: `2026-11-26T10:${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}.000000000Z`,
  id: `id-${n}`,
  pod: "agent-0",
  container: "server",
  previous: false,
  text,
});

describe("fitAnswer", () => {
  it("keeps everything that fits, uncut", () => {
    const lines = [line(1), line(2), line(3)];
    const fitted = fitAnswer(lines, "newest");
    expect(fitted.truncated).toBe(false);
    expect(fitted.lines.map((l) => l.id).sort()).toEqual(["id-1", "id-2", "id-3"]);
  });

  it("cuts a large answer, keeping the end asked for", () => {
    const big = "x".repeat(10_000);
    const lines = Array.from({ length: 200 }, (_, i) => line(i, big));
    const newest = fitAnswer(lines, "newest");
    const oldest = fitAnswer(lines, "oldest");
    for (const fitted of [newest, oldest]) {
      expect(fitted.truncated).toBe(true);
      expect(JSON.stringify(fitted.lines).length).toBeLessThan(1024 * 1024);
    }
    expect(newest.lines[0]!.id).toBe("id-199");
    expect(oldest.lines[0]!.id).toBe("id-0");
  });

  it("cuts a single overlong line to the protocol's limit, saying so", () => {
    const fitted = fitAnswer([line(1, "y".repeat(LOG_LINE_TEXT_MAX + 5))], "oldest");
    const text = fitted.lines[0]!.text;
    expect(text.length).toBeLessThanOrEqual(LOG_LINE_TEXT_MAX);
    expect(text).toMatch(/^y+… \[cut: 16,389 characters, \d+ not kept\]$/);
  });
});
