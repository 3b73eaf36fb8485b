import { describe, expect, it } from "vitest";
import { previewsConfigInput, withPreviewDefaults } from "../../src/schemas/previews";
import { commitStatusOf } from "../../src/server/services/previews/commit-status";
import { previewName, type StoredPreview } from "../../src/server/services/previews/names";
import { gatePreviewRevision } from "../../src/server/services/previews/revision-gate";

// Preview deployments' pure parts (contract 5.6): names, the config's defaults, what a
// commit status says for each revision state, and what a preview's revision is cut with.

describe("previewName", () => {
  it("is <name>-pr-<number>, cut to a 63-character DNS label", () => {
    expect(previewName("support-bot", 12)).toBe("support-bot-pr-12");
    const long = `${"a".repeat(55)}-bbbbbbb`;
    const name = previewName(long, 12345);
    expect(name).toHaveLength(63);
    expect(name).toMatch(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/);
    expect(name.endsWith("-pr-12345")).toBe(true);
    // A cut that would end in '-' drops it.
    expect(previewName(`${"a".repeat(52)}-x`, 100000)).toBe(`${"a".repeat(52)}-pr-100000`);
  });
});

describe("source_config.previews", () => {
  it("fills in defaults and refuses unknown members and out-of-range values", () => {
    expect(withPreviewDefaults({ enabled: true })).toEqual({
      enabled: true,
      max_open: 5,
      ttl_hours: 72,
      secrets: "none",
    });
    expect(withPreviewDefaults({ enabled: false, max_open: 2, secrets: "inherit" })).toMatchObject({
      max_open: 2,
      secrets: "inherit",
    });
    expect(previewsConfigInput.safeParse({ enabled: true, extra: 1 }).success).toBe(false);
    expect(previewsConfigInput.safeParse({ enabled: true, ttl_hours: 0 }).success).toBe(false);
    expect(previewsConfigInput.safeParse({ enabled: true, max_open: 51 }).success).toBe(false);
    expect(previewsConfigInput.safeParse({ enabled: true, max_open: 1.5 }).success).toBe(false);
    expect(previewsConfigInput.safeParse({ max_open: 3 }).success).toBe(false);
  });
});

describe("commitStatusOf", () => {
  const at = (status: string, runtime: string | null = null, statusMessage: string | null = null) =>
    commitStatusOf(
      { number: 3, status: status as never, runtime, statusMessage },
      "http://p.localhost",
    );

  it("is pending until the revision ends", () => {
    for (const status of ["QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING"])
      expect(at(status)).toMatchObject({ state: "pending", targetUrl: null });
    expect(at("BUILDING").description).toBe("Hangar: building revision 3.");
  });

  it("links the preview only when it runs on Kubernetes; a dry run says so", () => {
    expect(at("DEPLOYED", "kubernetes")).toEqual({
      state: "success",
      targetUrl: "http://p.localhost",
      description: "Preview running: revision 3.",
      context: "hangar/preview",
    });
    expect(at("DEPLOYED", "dry_run")).toEqual({
      state: "success",
      targetUrl: null,
      description: "Dry run: revision 3 was recorded, nothing was started (no cluster configured).",
      context: "hangar/preview",
    });
  });

  it("fails with the reason, and errors when superseded or interrupted", () => {
    expect(at("BUILD_FAILED", null, "graph.py: not found")).toMatchObject({
      state: "failure",
      description: "BUILD_FAILED: graph.py: not found",
      targetUrl: null,
    });
    expect(at("SKIPPED", null, "Superseded by revision 4 before its build started.")).toMatchObject(
      {
        state: "error",
        description: "SKIPPED: Superseded by revision 4 before its build started.",
      },
    );
  });
});

describe("commitStatusOf, for a fork's commit that awaits approval", () => {
  const withheld = (status: string, runtime: string | null = null) =>
    commitStatusOf(
      {
        number: 1234,
        status: status as never,
        runtime,
        statusMessage: null,
        secretsWithheld: true,
      },
      "http://p.localhost",
    );

  it("says it runs without secrets, and still fits the code host's 140 characters", () => {
    expect(withheld("DEPLOYED", "kubernetes").description).toBe(
      "Preview running: revision 1234. Without secrets: a new commit from a fork awaits approval.",
    );
    const dryRun = withheld("DEPLOYED", "dry_run").description;
    expect(dryRun).toBe(
      "Dry run: revision 1234 was recorded, nothing was started (no cluster configured). Without secrets: a new commit from a fork awaits approval.",
    );
    expect(dryRun.length).toBeLessThanOrEqual(140);
    expect(withheld("BUILDING").description).toMatch(/awaits approval\.$/);
  });
});

describe("gatePreviewRevision", () => {
  const preview = (over: Partial<StoredPreview> = {}): StoredPreview => ({
    pr_number: 7,
    pr_title: "t",
    pr_url: "https://code.example/acme/bot/pull/7",
    branch: "patch-1",
    author: "mallory",
    head_sha: "b".repeat(40),
    head_repo_url: "https://code.example/mallory/bot",
    fork: true,
    approved_sha: null,
    last_push_at: new Date(0).toISOString(),
    ...over,
  });
  const secrets = [{ name: "TOKEN", value_encrypted: "x" }];
  const snapshot = (over: object = {}) => ({
    source: "codehost" as const,
    sourceConfig: {} as never,
    sourceRevisionConfig: {
      repo_ref: "main",
      graph_config_path: "langgraph.json",
      image_uri: null,
      source_tarball_path: null,
      repo_commit_sha: null,
    },
    secrets,
    imageDigest: "sha256:old",
    ...over,
  });

  it("pins the head commit and the head branch, whatever was asked", () => {
    const cut = gatePreviewRevision("bot-pr-7", preview({ fork: false }), snapshot());
    expect(cut.sourceRevisionConfig).toMatchObject({
      repo_ref: "patch-1",
      repo_commit_sha: "b".repeat(40),
      graph_config_path: "langgraph.json",
    });
    expect(cut).toMatchObject({ secrets, secretsWithheld: false, imageDigest: null });
  });

  it("withholds a fork's secrets until its head is the approved commit", () => {
    expect(gatePreviewRevision("bot-pr-7", preview(), snapshot())).toMatchObject({
      secrets: [],
      secretsWithheld: true,
    });
    expect(
      gatePreviewRevision("bot-pr-7", preview({ approved_sha: "a".repeat(40) }), snapshot()),
    ).toMatchObject({ secrets: [], secretsWithheld: true });
    expect(
      gatePreviewRevision("bot-pr-7", preview({ approved_sha: "b".repeat(40) }), snapshot()),
    ).toMatchObject({ secrets, secretsWithheld: false });
    // Nothing to withhold: nothing is said.
    expect(gatePreviewRevision("bot-pr-7", preview(), snapshot({ secrets: [] }))).toMatchObject({
      secretsWithheld: false,
    });
  });

  it("refuses any other source", () => {
    expect(() =>
      gatePreviewRevision("bot-pr-7", preview(), snapshot({ source: "internal_container" })),
    ).toThrow(/bot-pr-7 previews pull request #7: .* not internal_container\.$/);
  });
});
