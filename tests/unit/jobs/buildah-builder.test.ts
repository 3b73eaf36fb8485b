import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StepFailure, type ImageTarget } from "../../../src/server/jobs/drivers/types";
import { buildahBuilder } from "../../../src/server/jobs/builder/images/buildah";
import { groupMembers } from "../../helpers/built-images";
import { testIo } from "../../helpers/build-io";

// The buildah image builder's side of the machine, with stand-ins for buildah (shell scripts):
// how it is called (credentials in a private auth file, never on the command line), a missing
// command, and an abort that ends the whole process group. The real buildah runs in
// tests/integration/builds-buildah.test.ts.

const PASSWORD = "hgp_unit-test-token-value";
const target: ImageTarget = {
  registry: "127.0.0.1:5000",
  repository: "ws/app",
  tag: "r1-x",
  insecure: true,
  credentials: { username: "oauth2accesstoken", password: PASSWORD },
};

function fakeBuildah(script: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-fake-buildah-"));
  const command = path.join(dir, "buildah");
  writeFileSync(command, `#!/bin/sh\n${script}\n`);
  chmodSync(command, 0o755);
  const context = path.join(dir, "context");
  return { dir, command, context, root: path.join(dir, "root") };
}

describe("the buildah image builder", () => {
  it("passes credentials in an auth file only it can read, outside the context, removed after", async () => {
    // Records its arguments and the auth file it was given, then fails like a build does.
    const fake = fakeBuildah(
      [
        'echo "$@" >> "$(dirname "$0")/calls"',
        'for a in "$@"; do if [ "$prev" = --authfile ]; then stat -c %a "$a" > "$(dirname "$0")/mode"; echo "$a" > "$(dirname "$0")/authfile"; cat "$a" > "$(dirname "$0")/auth"; fi; prev=$a; done',
        'echo "STEP 1/2: FROM base"',
        'echo "Error: creating build container: unauthorized" >&2',
        "exit 1",
      ].join("\n"),
    );
    const { io, logged } = testIo(target);
    const failure = await buildahBuilder({ root: fake.root, command: fake.command })
      .build({ contextDir: fake.dir, dockerfile: "Dockerfile.hangar", target }, io)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailure);
    expect((failure as StepFailure).message).toBe(
      "STEP 1/2: FROM base failed (creating build container: unauthorized).",
    );
    expect(logged).toEqual([
      "STEP 1/2: FROM base",
      "Error: creating build container: unauthorized",
    ]);
    const calls = readFileSync(path.join(fake.dir, "calls"), "utf8");
    expect(calls).toContain("bud --isolation chroot --layers --force-rm --authfile");
    expect(calls).toContain(`--storage-driver vfs --root ${fake.root}/storage`);
    expect(calls).not.toContain(PASSWORD);
    expect(readFileSync(path.join(fake.dir, "mode"), "utf8").trim()).toBe("600");
    const authfile = readFileSync(path.join(fake.dir, "authfile"), "utf8").trim();
    expect(authfile.startsWith(`${fake.root}/runs/`)).toBe(true);
    expect(existsSync(authfile)).toBe(false);
    const auth = JSON.parse(readFileSync(path.join(fake.dir, "auth"), "utf8"));
    expect(Buffer.from(auth.auths["127.0.0.1:5000"].auth, "base64").toString()).toBe(
      `oauth2accesstoken:${PASSWORD}`,
    );
  });

  it("says so when buildah is not installed", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "hangar-no-buildah-"));
    const failure = await buildahBuilder({ root, command: "hangar-no-such-buildah" })
      .build({ contextDir: root, dockerfile: "Dockerfile.hangar", target }, testIo(target).io)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailure);
    expect((failure as StepFailure).message).toBe(
      "The hangar-no-such-buildah command was not found on this worker (HANGAR_BUILDER=buildah): install it (Debian: apt-get install buildah), or choose another builder (README, Builds).",
    );
  });

  it("ends its whole process group when aborted, a step's children too", async () => {
    // A build whose RUN step started a child that ignores SIGTERM.
    const fake = fakeBuildah(
      [
        'echo "STEP 1/2: RUN sleep"',
        "sh -c 'trap \"\" TERM; sleep 300' &",
        'echo "running $$"',
        "wait",
      ].join("\n"),
    );
    const controller = new AbortController();
    const { io, logged } = testIo(target, controller.signal);
    const building = buildahBuilder({ root: fake.root, command: fake.command })
      .build({ contextDir: fake.dir, dockerfile: "Dockerfile.hangar", target }, io)
      .catch((error: unknown) => error);
    while (!logged.some((line) => line.startsWith("running ")))
      await new Promise((r) => setTimeout(r, 20));
    const group = Number(logged.find((line) => line.startsWith("running "))!.split(" ")[1]);
    expect(groupMembers(group).length).toBeGreaterThanOrEqual(2);
    controller.abort();
    const failure = await building;
    expect((failure as StepFailure).message).toBe("The build was stopped.");
    expect(groupMembers(group)).toEqual([]);
  });
});
