import { describe, expect, it } from "vitest";
import { tracingEndpoint } from "../../../src/server/services/tracing/endpoint";

// Where deployed pods send traces (contract 15.7): HANGAR_TRACING_ENDPOINT, else the public
// URL's tracing base, else nowhere (no tracing env is rendered).

describe("the tracing endpoint pods get", () => {
  it("is HANGAR_TRACING_ENDPOINT when set, trailing slashes dropped", () => {
    expect(
      tracingEndpoint({
        HANGAR_TRACING_ENDPOINT: "http://hangar.hangar-system.svc:3000/api/v1/",
        HANGAR_PUBLIC_URL: "https://hangar.example.com",
      }),
    ).toBe("http://hangar.hangar-system.svc:3000/api/v1");
  });

  it("else the public URL's /api/v1", () => {
    expect(
      tracingEndpoint({
        HANGAR_TRACING_ENDPOINT: undefined,
        HANGAR_PUBLIC_URL: "https://hangar.example.com/",
      }),
    ).toBe("https://hangar.example.com/api/v1");
  });

  it("else none", () => {
    expect(
      tracingEndpoint({ HANGAR_TRACING_ENDPOINT: undefined, HANGAR_PUBLIC_URL: undefined }),
    ).toBeNull();
  });
});
