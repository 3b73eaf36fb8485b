import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOG_ANSWER_BYTES } from "../../src/lib/log-text";
import { startBuildStack, type BuildStack } from "../helpers/build-stack";
import { waitForRevision } from "../helpers/engine";
import { api, type ApiResponse } from "../helpers/http";
import { pythonProject } from "../helpers/stack-builds";
import { tarGz } from "../helpers/tarball";
import { buildUpload, createForUpload, issueUploadUrl, putUpload } from "../helpers/uploads";

// A real build whose RUN step prints whatever it wants (issue 32, finding 6), on a worker with
// HANGAR_BUILDER=buildah and the default log bounds: 58 MB of output, an 8 MiB line without a
// newline and escape sequences. The build goes on and deploys; its log keeps at most the cap,
// says what was not kept, ends with the build's own final lines, and reads back harmless and
// bounded through the deploy client's route.

const MAX_LINE = 16_384;
const MAX_LINES = 20_000;
const MAX_BYTES = 4 * 1024 * 1024;

let stack: BuildStack;

beforeAll(async () => {
  stack = await startBuildStack({ HANGAR_BUILD_TIMEOUT_SECONDS: "150" });
}, 240_000);
afterAll(() => stack?.stop());

/** The base image's busybox has few applets linked: call the others through it. */
const bb = (applet: string) => `busybox ${applet}`;

/** `n` copies of `char` on one line, with no newline. */
const run = (char: string, n: number) =>
  `${bb("yes")} ${char} | ${bb("head")} -n ${n} | ${bb("tr")} -d '\\n'`;

const project = () => pythonProject(stack.baseImage, "graph = 'loud'\n");

async function build(name: string, buildCommand: string) {
  const key = stack.tenant.keys.editor;
  const deploymentId = await createForUpload(key, name, stack.baseUrl);
  const { upload_url, object_path } = await issueUploadUrl(key, deploymentId, stack.baseUrl);
  expect((await putUpload(upload_url, tarGz(project()))).status).toBe(200);
  const patched = await buildUpload(key, deploymentId, object_path, {
    baseUrl: stack.baseUrl,
    sourceConfig: { build_command: buildCommand },
  });
  expect(patched.status, patched.text).toBe(200);
  const revisionId = patched.body.latest_revision_id as string;
  const revision = await waitForRevision(revisionId, undefined, {
    db: stack.db,
    timeoutMs: 170_000,
  });
  const rows = await stack.db.revisionLog.findMany({
    where: { revisionId, stream: "build" },
    orderBy: { id: "asc" },
  });
  return { deploymentId, revision, lines: rows.map((r) => r.line) };
}

const bytesOf = (lines: string[]) => lines.reduce((n, l) => n + Buffer.byteLength(l), 0);

describe("a build that floods its log", () => {
  it("keeps at most the cap, says what was not kept, goes on and deploys", async () => {
    const { deploymentId, revision, lines } = await build(
      `flood-${Date.now().toString(36)}`,
      [
        `${bb("printf")} '\\033]0;pwned\\007\\033[2J\\033[3Jescapes-done\\r\\n'`,
        // 8 MiB without a newline, then 50,000 lines of 1,150 characters: 58 MB in all.
        run("a", 8 * 1024 * 1024),
        "echo",
        `X=$(${run("x", 1150)})`,
        `${bb("yes")} "$X" | ${bb("head")} -n 50000`,
        "echo flood-done",
        // buildah 1.28 (chroot) may drop what is still in flight when a RUN step exits.
        "sleep 2",
      ].join(" && "),
    );
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");

    expect(lines).toContain("␛]0;pwned␇␛[2J␛[3Jescapes-done");
    const endless = lines.find((l) => l.startsWith("aaaa"))!;
    expect(endless.length).toBeLessThanOrEqual(MAX_LINE);
    expect(endless).toMatch(/^a+… \[cut: 8,388,608 characters, 8,372,273 not kept\]$/);
    expect(lines.join("")).not.toMatch(/[^\P{Cc}\t\n]/u);

    // The cap (bytes here: 50,000 × 1,151 bytes is far past it), then one line, then the end.
    const notKept = lines.findIndex((l) => /^… [\d,]+ more lines/.test(l));
    expect(notKept).toBeGreaterThan(0);
    expect(bytesOf(lines.slice(0, notKept))).toBeLessThanOrEqual(MAX_BYTES);
    expect(notKept).toBeLessThanOrEqual(MAX_LINES);
    const wide = lines.filter((l) => l === "x".repeat(1150)).length;
    expect(wide).toBeGreaterThan(3000);
    const [, count] = /^… ([\d,]+) more lines/.exec(lines[notKept]!)!;
    // What was not kept: the rest of the wide lines, buildah's own lines after them (the step's
    // end, the commit), and "flood-done".
    expect(Number(count!.replaceAll(",", ""))).toBeGreaterThan(50_000 - wide);
    expect(lines[notKept]).toContain("of output were not kept");
    expect(lines).not.toContain("flood-done");
    expect(lines.slice(notKept + 1)).toEqual([
      expect.stringMatching(/^Pushed image digest sha256:[0-9a-f]{64}$/),
      "Build finished",
    ]);

    // The deploy client reads every line back, a page at a time within the byte budget.
    const path = `/v1/projects/${deploymentId}/revisions/${revision.id}/build_logs`;
    const read: string[] = [];
    let offset: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const res: ApiResponse<{ logs: { message: string }[]; next_offset: string | null }> =
        await api(path, {
          key: stack.tenant.keys.viewer,
          baseUrl: stack.baseUrl,
          method: "POST",
          body: { order: "asc", limit: 1000, ...(offset ? { offset } : {}) },
        });
      expect(res.status, res.text).toBe(200);
      expect(Buffer.byteLength(JSON.stringify(res.body.logs))).toBeLessThanOrEqual(
        LOG_ANSWER_BYTES,
      );
      read.push(...res.body.logs.map((l) => l.message));
      offset = res.body.next_offset;
      if (!offset) break;
    }
    expect(read).toEqual(lines);
  }, 180_000);

  it("a failing step's reason and last lines still land after the cap", async () => {
    const { revision, lines } = await build(
      `flood-fail-${Date.now().toString(36)}`,
      // The sleeps let buildah pass on what is in flight before the step exits (see above).
      `${bb("yes")} short-line | ${bb("head")} -n 30000 && sleep 1 && echo the-last-words && sleep 2 && exit 3`,
    );
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toMatch(
      /^STEP \d+\/\d+: RUN cd \/deps\/app && busybox yes short-line .* failed \(exit status 3\)\. Its last lines:\n( {2}short-line\n)+ {2}the-last-words$/,
    );
    // The line cap this time; the reason, as an ERROR line, comes after the "not kept" line.
    const notKept = lines.findIndex((l) => /^… [\d,]+ more lines/.test(l));
    expect(notKept).toBe(MAX_LINES);
    expect(lines.slice(notKept + 1)).toEqual([revision.statusMessage]);
    const errors = await stack.db.revisionLog.findMany({
      where: { revisionId: revision.id, level: "ERROR" },
    });
    expect(errors.map((e) => e.line)).toEqual([revision.statusMessage]);
  }, 180_000);
});
