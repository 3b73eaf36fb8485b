import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { trustForwardedHeaders } from "../../src/server/forwarded-headers";

const trusted = (headers: IncomingHttpHeaders, hops: number) => {
  const copy = { ...headers };
  trustForwardedHeaders(copy, hops);
  return copy;
};

describe("trustForwardedHeaders", () => {
  it("drops every forwarded scheme, host, port and Forwarded without trusted proxies", () => {
    expect(
      trusted(
        {
          host: "hangar.test",
          "x-forwarded-proto": "https",
          "x-forwarded-host": "evil.example",
          "x-forwarded-port": "443",
          forwarded: "proto=https;host=evil.example",
          "x-forwarded-for": "203.0.113.9",
        },
        0,
      ),
    ).toEqual({ host: "hangar.test", "x-forwarded-for": "203.0.113.9" });
  });

  it("keeps the entry that many places from the right behind trusted proxies", () => {
    const headers = {
      "x-forwarded-proto": "http, https",
      "x-forwarded-host": "evil.example, hangar.example, lb.internal",
      "x-forwarded-port": "1, 443",
    };
    expect(trusted(headers, 1)).toEqual({
      "x-forwarded-proto": "https",
      "x-forwarded-host": "lb.internal",
      "x-forwarded-port": "443",
    });
    expect(trusted(headers, 2)["x-forwarded-host"]).toBe("hangar.example");
  });

  it("keeps the leftmost entry when the proxies wrote fewer than the hops, and adds none", () => {
    expect(trusted({ "x-forwarded-proto": "https" }, 2)).toEqual({ "x-forwarded-proto": "https" });
    expect(trusted({ "x-forwarded-host": " , " }, 1)).toEqual({});
    expect(trusted({}, 1)).toEqual({});
  });
});
