import { describe, expect, it } from "vitest";
import { isCrossSite } from "../../src/server/same-origin";
import { trpcCallCount } from "../../src/trpc/limits";

describe("isCrossSite", () => {
  const h = (entries: Record<string, string>) => new Headers({ host: "hangar.test", ...entries });
  it("trusts same-origin requests and those without Origin", () => {
    expect(isCrossSite(h({}))).toBe(false);
    expect(isCrossSite(h({ origin: "https://hangar.test" }))).toBe(false);
    expect(isCrossSite(h({ "sec-fetch-site": "same-origin" }))).toBe(false);
  });
  it("refuses other sites and any Origin that is not a URL (was a 500)", () => {
    for (const origin of ["https://evil.example", "null", "http://[::1", "%%%", ""])
      expect(isCrossSite(h({ origin })), origin).toBe(true);
    expect(isCrossSite(h({ "sec-fetch-site": "cross-site" }))).toBe(true);
  });
});

describe("trpcCallCount", () => {
  it("counts the procedures of a batch, capped just past the batch limit", () => {
    expect(trpcCallCount("/api/trpc/a.b")).toBe(1);
    expect(trpcCallCount("/api/trpc/a.b,c.d,e.f")).toBe(3);
    expect(trpcCallCount("/api/trpc/a.b%2Cc.d")).toBe(2);
    expect(trpcCallCount(`/api/trpc/${Array(150).fill("x.y").join(",")}`)).toBe(21);
    expect(trpcCallCount("/v2/deployments")).toBe(1);
  });
});
