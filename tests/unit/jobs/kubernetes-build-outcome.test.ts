import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StepFailure } from "../../../src/server/jobs/drivers";
import { startFakeKubeApi, type FakeKubeApi } from "../../../testing/fake-kube-api";
import { testIo } from "../../helpers/build-io";
import {
  deleted,
  DIGEST,
  JOB_NAME,
  JOBS_PATH,
  METADATA,
  runJob,
  specWith,
  TARGET,
} from "../../helpers/kube-build";

// A Kubernetes build as it runs: the builder's log followed into the build log line by line,
// and its end read from the Job's status (success with the pushed digest, a failing step, a
// context that could not be fetched, the deadline), the Job deleted whatever happened.

process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);

let kube: FakeKubeApi;
beforeEach(async () => {
  kube = await startFakeKubeApi();
});
afterEach(() => kube.stop());

const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 10 });
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("the build succeeded");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(StepFailure);
      return error as StepFailure;
    },
  );

const STEPS = [
  "#1 [internal] load build definition from Dockerfile.hangar",
  "#1 transferring dockerfile: 312B done",
  "#1 DONE 0.0s",
  "#5 [2/3] RUN pip install -r requirements.txt",
  "#5 0.512 Collecting langgraph",
];
const FAILED_STEP = [
  "#5 1.201 ERROR: No matching distribution found for langgraph==99",
  '#5 ERROR: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
  "------",
  " > [2/3] RUN pip install -r requirements.txt:",
  "------",
  'error: failed to solve: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
];

describe("a running Kubernetes build", () => {
  it("follows the builder's log into the build log as it is written, each line once", async () => {
    kube.setBuildJob({ log: STEPS.slice(0, 2) });
    const { io, logged } = testIo(TARGET);
    let settled = false;
    const build = runJob(kube, io).finally(() => (settled = true));

    await until(() => expect(logged).toContain(STEPS[1]));
    kube.appendJobLog(JOB_NAME, STEPS.slice(2));
    await until(() => expect(logged).toContain(STEPS[4]));
    expect(settled).toBe(false);
    expect(deleted(kube)).toHaveLength(0);

    kube.finishJob(JOB_NAME, { status: "succeeded", terminationMessage: METADATA });
    expect(await build).toEqual({ digest: DIGEST });
    expect(logged.filter((l) => l.startsWith("#"))).toEqual(STEPS);
    expect(logged[0]).toBe(
      "Build Job hangar-builds/hangar-build-a1b2c3d4e5 started (moby/buildkit:v0.25.2-rootless)",
    );
    const follow = kube.requests.find((r) => r.path.endsWith("/log"))!;
    expect(follow.query).toMatchObject({ container: "build", follow: "true", timestamps: "true" });
    expect(deleted(kube)).toHaveLength(1);
  });

  it("reads on from its last line when the log stream is cut, without repeating a line", async () => {
    kube.setBuildJob({ log: STEPS.slice(0, 3) });
    const { io, logged } = testIo(TARGET);
    const build = runJob(kube, io);
    await until(() => expect(logged).toContain(STEPS[2]));

    kube.cutJobLogs(JOB_NAME);
    kube.appendJobLog(JOB_NAME, STEPS.slice(3));
    await until(() => expect(logged).toContain(STEPS[4]));
    kube.finishJob(JOB_NAME, { status: "succeeded", terminationMessage: METADATA });
    await build;

    expect(logged.filter((l) => l.startsWith("#"))).toEqual(STEPS);
    const reads = kube.requests.filter((r) => r.path.endsWith("/log"));
    expect(reads.length).toBeGreaterThan(1);
    // Resumed from the last line's second: lines of that second come again and are skipped.
    expect(reads[1]!.query.sinceTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("fails naming the failing step, with its last lines", async () => {
    kube.setBuildJob({
      log: [...STEPS, ...FAILED_STEP],
      end: { status: "failed", exitCode: 1 },
    });
    const { io, logged } = testIo(TARGET);
    const failure = await failureOf(runJob(kube, io));
    expect(failure.message).toBe(
      'Build step [2/3] RUN pip install -r requirements.txt failed: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
    );
    expect(failure.lines).toEqual([
      "Last lines of [2/3] RUN pip install -r requirements.txt:",
      "  Collecting langgraph",
      "  ERROR: No matching distribution found for langgraph==99",
    ]);
    expect(logged).toEqual(expect.arrayContaining([...STEPS, ...FAILED_STEP]));
    expect(deleted(kube)).toHaveLength(1);
  });

  it("fails with the builder's own error when no step failed", async () => {
    kube.setBuildJob({
      log: [
        "#1 [internal] load build definition from Dockerfile.hangar",
        "error: failed to push registry.hangar.test:5000/x: unauthorized",
      ],
      end: { status: "failed", exitCode: 1 },
    });
    const failure = await failureOf(runJob(kube, testIo(TARGET).io));
    expect(failure.message).toBe(
      "The build failed: failed to push registry.hangar.test:5000/x: unauthorized",
    );
    expect(failure.lines.at(-1)).toBe(
      "  error: failed to push registry.hangar.test:5000/x: unauthorized",
    );
  });

  it("fails saying why the context could not be fetched", async () => {
    kube.setBuildJob({
      fetchLog: [
        "Connecting to hangar.example (10.0.0.5:443)",
        "wget: server returned error: HTTP/1.1 409 Conflict",
      ],
      end: { status: "fetch_failed", exitCode: 1 },
    });
    const failure = await failureOf(runJob(kube, testIo(TARGET).io));
    expect(failure.message).toBe(
      "Fetching the build context failed: wget: server returned error: HTTP/1.1 409 Conflict",
    );
    expect(deleted(kube)).toHaveLength(1);
  });

  it("fails naming the bound it reached: memory (OOMKilled) or disk (evicted)", async () => {
    kube.setBuildJob({ log: STEPS, end: { status: "failed", exitCode: 137, reason: "OOMKilled" } });
    const oom = await failureOf(runJob(kube, testIo(TARGET).io));
    expect(oom.message).toBe(
      "The builder ran out of memory (OOMKilled). A build may use HANGAR_BUILD_MEMORY (4Gi).",
    );
    // The kubelet's own words when emptyDirs and logs pass the pod's ephemeral-storage limit.
    const message = "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi.";
    kube.setBuildJob({ log: STEPS, end: { status: "evicted", message } });
    const evicted = await failureOf(
      runJob(kube, testIo(TARGET).io, specWith({ id: "f6e5d4c3b2" })),
    );
    expect(evicted.message).toBe(
      "The build pod was evicted: Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. A build may write HANGAR_BUILD_DISK (20Gi).",
    );
  });

  it("fails at its deadline (the Job's activeDeadlineSeconds), naming the timeout", async () => {
    kube.setBuildJob({ log: STEPS, end: { status: "deadline" } });
    const failure = await failureOf(runJob(kube, testIo(TARGET).io));
    expect(failure.message).toBe(
      "The build did not finish within 900s (HANGAR_BUILD_TIMEOUT_SECONDS): its Job was stopped.",
    );
    expect(deleted(kube)).toHaveLength(1);
  });

  it("fails at once when its pod cannot start (an image that cannot be pulled)", async () => {
    const message = 'Back-off pulling image "moby/buildkit:v0.25.2-rootless"';
    kube.setBuildJob({ waiting: { reason: "ImagePullBackOff", message } });
    const failure = await failureOf(runJob(kube, testIo(TARGET).io));
    expect(failure.message).toBe(
      `The build pod cannot start: container build cannot start (ImagePullBackOff): ${message}`,
    );
    expect(deleted(kube)).toHaveLength(1);
  });

  it("fails when the builder reports no digest", async () => {
    kube.setBuildJob({ end: { status: "succeeded", terminationMessage: "{}" } });
    const failure = await failureOf(runJob(kube, testIo(TARGET).io));
    expect(failure.message).toBe("The build finished, but its builder reported no image digest.");
  });

  it("stops at once when interrupted: the Job is deleted and its log no longer followed", async () => {
    kube.setBuildJob({ log: STEPS });
    const interrupt = new AbortController();
    const { io, logged } = testIo(TARGET, interrupt.signal);
    const build = runJob(kube, io);
    await until(() => expect(logged).toContain(STEPS[4]));
    expect(kube.jobLogFollowed(JOB_NAME)).toBe(true);

    const reason = new Error("Revision 3 was interrupted");
    interrupt.abort(reason);
    await expect(build).rejects.toBe(reason);
    expect(deleted(kube)).toEqual([
      expect.objectContaining({
        query: expect.objectContaining({ propagationPolicy: "Background" }),
      }),
    ]);
    expect(kube.jobLogFollowed(JOB_NAME)).toBe(false);
    expect([...kube.objects.keys()]).toEqual([]);
  });

  it("outlasts a few failed reads of its Job, not a streak of them", async () => {
    kube.setBuildJob({ log: STEPS });
    const { io, logged } = testIo(TARGET);
    const build = runJob(kube, io);
    await until(() => expect(logged).toContain(STEPS[4]));
    const jobPath = `${JOBS_PATH}/${JOB_NAME}`;
    const reads = () => kube.requests.filter((r) => r.method === "GET" && r.path === jobPath);
    kube.failOn(jobPath, 503, "etcdserver: leader changed");
    const before = reads().length;
    await until(() => expect(reads().length).toBeGreaterThanOrEqual(before + 3));
    kube.recover(jobPath);
    kube.finishJob(JOB_NAME, { status: "succeeded", terminationMessage: METADATA });
    expect(await build).toEqual({ digest: DIGEST });

    const next = testIo(TARGET);
    const failing = runJob(kube, next.io);
    await until(() => expect(next.logged).toContain(STEPS[4]));
    kube.failOn(jobPath, 503, "etcdserver: leader changed");
    const failure = await failureOf(failing);
    expect(failure.message).toBe(
      "Could not read the build Job's progress: etcdserver: leader changed",
    );
  });

  it("fails when someone else deletes its Job", async () => {
    kube.setBuildJob({ log: STEPS });
    const { io, logged } = testIo(TARGET);
    const build = runJob(kube, io);
    await until(() => expect(logged).toContain(STEPS[4]));
    kube.objects.delete(`${JOBS_PATH}/${JOB_NAME}`);
    const failure = await failureOf(build);
    expect(failure.message).toBe(
      `The build Job hangar-builds/${JOB_NAME} was deleted by someone else.`,
    );
  });
});
