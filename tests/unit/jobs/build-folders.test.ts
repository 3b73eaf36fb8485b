import { mkdirSync, mkdtempSync, readdirSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { testIo, uploadBuild } from "../../helpers/build-io";
import { StepFailure } from "../../../src/server/jobs/drivers/types";
import { localUploadStore } from "../../../src/server/storage/local";
import { uploadPathOf } from "../../../src/server/storage/types";
import { sampleProject, tarGz, type TarEntry } from "../../helpers/tarball";

// Before the modules below read the environment (imports are hoisted above plain statements).
vi.hoisted(() => {
  process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);
});

// Build folders hold an upload's files only while its build runs (issue 23, finding 3): success
// and failure both remove them, and folders a killed worker left behind are swept.

const deploymentId = "5a4b3c2d-0000-4000-8000-000000000001";

async function setUp(entries: TarEntry[], upload = "0b1c2d3e-0000-4000-8000-000000000001") {
  const directory = mkdtempSync(path.join(tmpdir(), "hangar-build-folders-"));
  const store = localUploadStore(path.join(directory, "uploads"));
  const objectPath = uploadPathOf(deploymentId, upload);
  await store.put(objectPath, Readable.from(tarGz(entries)), 10 * 1024 * 1024);
  const contextsDir = path.join(directory, "builds");
  const { builder, plan } = uploadBuild(store, contextsDir, objectPath);
  return { builder, plan, contextsDir };
}

describe("build folders", () => {
  it("are removed when a build succeeds", async () => {
    const { builder, plan, contextsDir } = await setUp(sampleProject());
    const built = await builder.build(plan, testIo().io);
    expect(
      built.lines.some((line: string) => line.startsWith("Build context ready (sha256:")),
    ).toBe(true);
    expect(readdirSync(contextsDir)).toEqual([]);
  });

  it("are removed when a build fails", async () => {
    const { builder, plan, contextsDir } = await setUp([
      { path: "src/agent.py", content: "graph = None\n" },
      { path: "a", type: "SymbolicLink", linkpath: "." },
      { path: "a/x", type: "SymbolicLink", linkpath: "../escaped" },
    ]);
    await expect(builder.build(plan, testIo().io)).rejects.toBeInstanceOf(StepFailure);
    expect(readdirSync(contextsDir)).toEqual([]);
  });

  it("left by a worker that died are swept by the next build", async () => {
    const { builder, plan, contextsDir } = await setUp(sampleProject());
    const stale = path.join(contextsDir, "build-left-behind");
    const fresh = path.join(contextsDir, "build-running-elsewhere");
    mkdirSync(path.join(stale, "src"), { recursive: true });
    mkdirSync(fresh, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    await builder.build(plan, testIo().io);
    expect(readdirSync(contextsDir)).toEqual(["build-running-elsewhere"]);
  });
});
