import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { testIo } from "../../helpers/build-io";
import { describe, expect, it } from "vitest";
import type { CodehostIntegration } from "../../../src/generated/prisma/client";
import { driversFromEnv } from "../../../src/server/jobs/drivers";
import { imageRefOf, recordingBuilder } from "../../../src/server/jobs/drivers/recording";
import { codehostSource } from "../../../src/server/jobs/drivers/source";
import { repoOf } from "../../../src/server/integrations/codehost/repo-url";
import type { BuildPlan, SourceInput } from "../../../src/server/jobs/drivers/types";

process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);

const plan: BuildPlan = {
  source: "codehost",
  deployment_id: "0195f0a0-0000-7000-8000-000000000001",
  repo_url: "https://code.example/acme/bot",
  repo_commit_sha: "a".repeat(40),
  source_tarball_path: null,
  graph_config_path: "langgraph.json",
  install_command: "pip install .",
  build_command: null,
};

describe("repoOf", () => {
  it("takes owner and repository from the last two path segments", () => {
    expect(repoOf("http://127.0.0.1:4000/acme/support-bot")).toEqual({
      owner: "acme",
      repo: "support-bot",
    });
    expect(repoOf("https://code.example/api/v3/acme/bot.git/")).toEqual({
      owner: "acme",
      repo: "bot",
    });
    expect(repoOf("https://code.example/acme")).toBeNull();
    expect(repoOf("not a url")).toBeNull();
  });
});

describe("the recording builder", () => {
  it("names the image by the plan's hash: equal plans share it, any change moves it", async () => {
    const built = await recordingBuilder().build(plan, testIo().io);
    expect(built.imageRef).toMatch(/^hangar\.local\/builds:[0-9a-f]{64}$/);
    expect(imageRefOf({ ...plan })).toBe(built.imageRef);
    const reordered = Object.fromEntries(Object.entries(plan).reverse()) as unknown as BuildPlan;
    expect(imageRefOf(reordered)).toBe(built.imageRef);
    expect(imageRefOf({ ...plan, repo_commit_sha: "b".repeat(40) })).not.toBe(built.imageRef);
    expect(built.lines).toContain("Install command (not run): pip install .");
  });
});

describe("the code-host source driver", () => {
  const input: SourceInput = {
    source: "codehost",
    integration: { id: "i" } as CodehostIntegration,
    repoUrl: "http://host/acme/bot",
    repoRef: "refs/heads/main",
    pinnedSha: null,
  };
  const unused = async (): Promise<never> => {
    throw new Error("the source step reads no file: the build reads the repository's archive");
  };
  const client = (branches: Record<string, string>) => () => ({
    checkAccess: async () => ({ ok: true as const }),
    listRepositories: async () => [],
    getBranchCommit: async (_o: string, _r: string, branch: string) => branches[branch] ?? null,
    fileExists: unused,
    createCommitStatus: unused,
    downloadArchive: unused,
  });

  it("resolves the branch (refs/heads/ or bare) to a commit, leaving the graph config to the build", async () => {
    const driver = codehostSource(client({ main: "c0ffee" }));
    expect((await driver.resolve(input)).commitSha).toBe("c0ffee");
    expect((await driver.resolve({ ...input, repoRef: "main" })).commitSha).toBe("c0ffee");
    expect((await driver.resolve({ ...input, pinnedSha: "abc1234" })).commitSha).toBe("abc1234");
  });

  it("fails saying which branch is missing", async () => {
    const noBranch = codehostSource(client({}));
    await expect(noBranch.resolve(input)).rejects.toThrow('Branch "main" not found in acme/bot');
  });

  it("has nothing to resolve for other sources", async () => {
    const driver = codehostSource(client({}));
    expect(await driver.resolve({ ...input, source: "internal_container" })).toEqual({
      commitSha: null,
      lines: [],
    });
  });
});

describe("driversFromEnv", () => {
  it("records deploys without a kubeconfig", async () => {
    const drivers = await driversFromEnv({
      HANGAR_KUBECONFIG: undefined,
    });
    expect(drivers.deployer.name).toBe("record");
  });

  /** A kubeconfig naming a cluster nothing listens for. */
  function kubeconfigFile(): string {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "kubeconfig-")), "config");
    writeFileSync(
      file,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:1'}}]",
        "users: [{name: u, user: {token: t}}]",
        "contexts: [{name: x, context: {cluster: c, user: u}}]",
        "current-context: x",
      ].join("\n"),
    );
    return file;
  }

  it("selects the Kubernetes driver when a kubeconfig is set", async () => {
    const selected = driversFromEnv({ HANGAR_KUBECONFIG: kubeconfigFile() });
    expect((await selected).deployer.name).toBe("kubernetes");
  });

  it("refuses HANGAR_BUILDER=kubernetes with a HANGAR_BUILD_EGRESS its NetworkPolicy cannot say", async () => {
    const file = kubeconfigFile();
    const start = (egress: string) =>
      driversFromEnv({
        HANGAR_KUBECONFIG: file,
        HANGAR_BUILDER: "kubernetes",
        HANGAR_BUILD_EGRESS: egress,
      });
    await expect(start("none,10.0.0.0/8")).rejects.toThrow(
      'HANGAR_BUILD_EGRESS: "none" cannot be combined with entries',
    );
    await expect(start("public,10.0.0.0/33")).rejects.toThrow(
      'HANGAR_BUILD_EGRESS: "10.0.0.0/33" is not a valid CIDR range',
    );
    // A name is resolved when each build starts, not here.
    expect((await start("public,mirror.internal:3128")).builder.imageBuilder).toBe("kubernetes");
  });

  it("refuses HANGAR_BUILDER=kubernetes without a kubeconfig", async () => {
    await expect(
      driversFromEnv({ HANGAR_KUBECONFIG: undefined, HANGAR_BUILDER: "kubernetes" }),
    ).rejects.toThrow("HANGAR_BUILDER=kubernetes builds in a cluster: set HANGAR_KUBECONFIG.");
  });
});
