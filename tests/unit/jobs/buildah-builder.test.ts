import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StepFailure, type ImageTarget } from "../../../src/server/jobs/drivers/types";
import { buildahBuilder } from "../../../src/server/jobs/builder/images/buildah";
import { parseBuildEgress } from "../../../src/server/outbound/build-egress";
import { testIo } from "../../helpers/build-io";

// The buildah image builder on a worker that lacks what it needs: it says which command to
// install before touching anything. The real buildah, in its sandbox, runs in
// tests/integration/builds-buildah.test.ts and build-sandbox.test.ts.

const target: ImageTarget = {
  registry: "127.0.0.1:5000",
  repository: "ws/app",
  workspace: "0196f1c2-0000-7000-8000-aabbccddeeff",
  tag: "r1-x",
  insecure: true,
  credentials: { username: "oauth2accesstoken", password: "hgp_unit-test-token-value" },
};
const bounds = {
  cpus: 1,
  memory: "1Gi",
  memoryBytes: 2 ** 30,
  disk: "1Gi",
  diskBytes: 2 ** 30,
  processes: 256,
};
const egress = parseBuildEgress("public");
const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

const build = (command: string, root: string) =>
  buildahBuilder({ root, command, bounds, egress })
    .build({ contextDir: root, dockerfile: "Dockerfile.hangar", target }, testIo(target).io)
    .catch((error: unknown) => error);

describe("the buildah image builder", () => {
  it("says so when buildah is not installed", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "hangar-no-buildah-"));
    const failure = await build("hangar-no-such-buildah", root);
    expect(failure).toBeInstanceOf(StepFailure);
    expect((failure as StepFailure).message).toBe(
      "The hangar-no-such-buildah command was not found on this worker (HANGAR_BUILDER=buildah): install it (Debian: apt-get install buildah), or choose another builder (README, Builds).",
    );
  });

  it("says which sandbox tools are missing (bubblewrap, util-linux)", async () => {
    // A PATH holding only a buildah: no bwrap, setpriv or prlimit.
    const dir = mkdtempSync(path.join(tmpdir(), "hangar-only-buildah-"));
    writeFileSync(path.join(dir, "buildah"), "#!/bin/sh\nexit 0\n");
    chmodSync(path.join(dir, "buildah"), 0o755);
    process.env.PATH = dir;
    const failure = await build("buildah", dir);
    expect((failure as StepFailure).message).toBe(
      "Builds run in a sandbox that needs bwrap, setpriv, prlimit on this worker (HANGAR_BUILDER=buildah): install them (Debian: apt-get install bubblewrap util-linux), or choose another builder (README, Builds).",
    );
  });
});
