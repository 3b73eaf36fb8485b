import { describe, expect, it } from "vitest";
import { MAX_DELAY_MS, restartDelayMs } from "../../src/server/db/embedded/supervisor";

describe("the embedded PostgreSQL's restart pauses", () => {
  it("restarts at once after a first exit, then doubles from 1 s up to its cap", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([
      0,
      1_000,
      2_000,
      4_000,
      8_000,
      16_000,
      MAX_DELAY_MS,
      MAX_DELAY_MS,
      MAX_DELAY_MS,
    ]);
    expect(MAX_DELAY_MS).toBe(30_000);
  });
});
