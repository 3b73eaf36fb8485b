import { describe, expect, it, vi } from "vitest";
import {
  ATTACHMENT_URL_TTL_SECONDS,
  attachmentLinks,
  attachmentUrl,
  checkAttachmentSignature,
} from "../../src/server/services/tracing/attachment-urls";

// Before the modules above read the environment (imports are hoisted above plain statements).
vi.hoisted(() => {
  process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);
});

// Where an attachment's presigned_url points (the advertised tracing base, else the caller's
// origin) and how long its signature holds.

const WORKSPACE = "11111111-1111-4111-8111-111111111111";
const RUN = "22222222-2222-4222-8222-222222222222";
const NOW = Date.parse("2026-12-01T10:00:00Z");
const none = { HANGAR_TRACING_ENDPOINT: undefined, HANGAR_PUBLIC_URL: undefined };

describe("attachment links", () => {
  it("point at HANGAR_TRACING_ENDPOINT, else the public URL's /api/v1, else the origin's", () => {
    const base = (config: typeof none | Record<string, string>, origin?: string) =>
      attachmentLinks(WORKSPACE, origin, NOW, { ...none, ...config }).base;
    expect(
      base(
        {
          HANGAR_TRACING_ENDPOINT: "http://hangar.svc:3000/api/v1/",
          HANGAR_PUBLIC_URL: "https://hangar.example.com",
        },
        "http://localhost:3000",
      ),
    ).toBe("http://hangar.svc:3000/api/v1");
    expect(base({ HANGAR_PUBLIC_URL: "https://hangar.example.com/" }, "http://x")).toBe(
      "https://hangar.example.com/api/v1",
    );
    expect(base({}, "http://localhost:3000/")).toBe("http://localhost:3000/api/v1");
    // A server-rendered page knows no address: relative to Hangar.
    expect(base({})).toBe("/api/v1");
  });

  it("hold until the read's time plus the TTL, then are expired", () => {
    const links = attachmentLinks(WORKSPACE, "https://h.test", NOW, none);
    expect(links.expiresAt).toBe(NOW / 1000 + ATTACHMENT_URL_TTL_SECONDS);
    const url = new URL(attachmentUrl(links, RUN, "my notes"));
    // At /public/download, so the spec's Public download row limits it (rules.ts).
    expect(url.pathname).toBe("/api/v1/public/download");
    expect([...url.searchParams.keys()]).toEqual([
      "run_id",
      "name",
      "workspace",
      "expires",
      "signature",
    ]);
    expect(url.searchParams.get("run_id")).toBe(RUN);
    expect(url.searchParams.get("name")).toBe("my notes");
    expect(url.searchParams.get("workspace")).toBe(WORKSPACE);
    const check = (now: number, name = "my notes") =>
      checkAttachmentSignature(
        { workspaceId: WORKSPACE, runId: RUN, name },
        url.searchParams.get("expires"),
        url.searchParams.get("signature"),
        now,
      );
    expect(check(NOW)).toBe("ok");
    expect(check(NOW + ATTACHMENT_URL_TTL_SECONDS * 1000)).toBe("ok");
    expect(check(NOW + ATTACHMENT_URL_TTL_SECONDS * 1000 + 1000)).toBe("expired");
    expect(check(NOW, "my notes ")).toBe("invalid");
  });
});
