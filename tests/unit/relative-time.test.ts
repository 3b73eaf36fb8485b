import { describe, expect, it } from "vitest";
import { shortDigest, shortImage, repositoryOf } from "../../src/lib/image-ref";
import { formatRelative, tickFor, TICKS } from "../../src/lib/relative-time";
import { ago, summarize, summaryTick } from "../../src/lib/runtime-summary";

// Relative times that stay true (issue 34): what each shows, and how often the page's clock must
// tick for it (every second while seconds show, so "N s ago" never freezes).

const NOW = Date.parse("2026-11-29T12:00:00Z");
const before = (ms: number) => new Date(NOW - ms);

describe("formatRelative", () => {
  it("says just now, then seconds, minutes, hours, days", () => {
    expect(formatRelative(before(3_000), NOW)).toBe("just now");
    expect(formatRelative(before(12_000), NOW)).toBe("12 seconds ago");
    expect(formatRelative(before(13_000), NOW)).toBe("13 seconds ago");
    expect(formatRelative(before(3 * 60_000), NOW)).toBe("3 minutes ago");
    expect(formatRelative(before(2 * 3_600_000), NOW)).toBe("2 hours ago");
    expect(formatRelative(before(24 * 3_600_000), NOW)).toBe("yesterday");
  });
});

describe("tickFor: the clock's period fits the finest unit shown", () => {
  it("ticks every second while seconds show, then every 30 s, then every minute", () => {
    expect(tickFor(0)).toBe(TICKS.second);
    expect(tickFor(59_999)).toBe(TICKS.second);
    expect(tickFor(60_000)).toBe(TICKS.halfMinute);
    expect(tickFor(3_599_999)).toBe(TICKS.halfMinute);
    expect(tickFor(3_600_000)).toBe(TICKS.minute);
    // A time a little ahead of the browser's clock (clock skew) still ticks every second.
    expect(tickFor(-2_000)).toBe(TICKS.second);
  });

  it("each tick changes a seconds text: it never reads the same for more than a second", () => {
    const shown = [10, 11, 12, 13].map((s) => formatRelative(before(0), NOW + s * 1000));
    expect(new Set(shown).size).toBe(4);
    expect([3, 30, 59].map((s) => ago(s * 1000))).toEqual(["3 s ago", "30 s ago", "59 s ago"]);
  });
});

describe("the runtime summary's time", () => {
  const observed = (at: string | null) => ({
    healthy: false,
    reason: "CrashLoopBackOff",
    ready_replicas: 0,
    desired_replicas: 1,
    restarts: 3,
    last_termination: { reason: "OOMKilled", at },
  });

  it("shows seconds and asks for a tick every second until it shows minutes", () => {
    const at = new Date(NOW - 12_000).toISOString();
    expect(summarize(observed(at), NOW)).toBe(
      "0/1 ready · 3 restarts · OOMKilled 12 s ago · CrashLoopBackOff",
    );
    expect(summarize(observed(at), NOW + 1_000)).toContain("OOMKilled 13 s ago");
    expect(summaryTick(observed(at), NOW)).toBe(TICKS.second);
    expect(summaryTick(observed(at), NOW + 5 * 60_000)).toBe(TICKS.halfMinute);
    expect(summarize(observed(at), NOW + 5 * 60_000)).toContain("OOMKilled 5 min ago");
  });

  it("needs no tick when it shows no time", () => {
    expect(summaryTick(observed(null), NOW)).toBeNull();
    expect(summaryTick({ ...observed(null), last_termination: null }, NOW)).toBeNull();
  });
});

describe("images as the Promote dialog compares them", () => {
  const digest = `sha256:${"0123456789abcdef".repeat(4)}`;

  it("repository@sha256:<12 hex>, the tag or digest dropped from the repository", () => {
    expect(shortDigest(digest)).toBe("sha256:0123456789ab");
    expect(repositoryOf(`registry.hangar.test:5000/ws/app@${digest}`)).toBe(
      "registry.hangar.test:5000/ws/app",
    );
    expect(repositoryOf("registry.example.com:5000/agents/app:1.0")).toBe(
      "registry.example.com:5000/agents/app",
    );
    expect(shortImage(`registry.hangar.test:5000/ws/app@${digest}`, digest)).toBe(
      "registry.hangar.test:5000/ws/app@sha256:0123456789ab",
    );
    expect(shortImage(`registry.hangar.test:5000/ws/app@${digest}`, null)).toBe(
      "registry.hangar.test:5000/ws/app@sha256:0123456789ab",
    );
  });

  it("a tag without a digest reads as named", () => {
    expect(shortImage("registry.example.com/agents/app:1.0", null)).toBe(
      "registry.example.com/agents/app:1.0",
    );
    expect(shortImage(null, null)).toBeNull();
  });
});
