import { describe, expect, it } from "vitest";
import { bootstrapApiKey } from "../../src/lib/bootstrap-key";

// HANGAR_BOOTSTRAP_API_KEY (issue 11, finding 11): a short or repetitive key is refused at start.

describe("bootstrap API key rule", () => {
  it.each([
    ["short", "hgr_local_demo_key"],
    ["prefix plus little", "hgr_0123456789ab"],
    ["long but repetitive", "hgr_" + "ab".repeat(30)],
  ])("refuses a %s key", (_what, key) => {
    expect(bootstrapApiKey.safeParse(key).success).toBe(false);
  });

  it("accepts a random key", () => {
    expect(bootstrapApiKey.safeParse("hgr_3f9a1c7e5b2d4f6089a7c1e3b5d7f9a1c3e5b7d9").success).toBe(
      true,
    );
  });
});
