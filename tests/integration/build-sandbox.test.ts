import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueBuildToken } from "../../src/server/services/registry/push-tokens";
import { boundsOf } from "../helpers/build-cgroups";
import { startBuildStack, type BuildStack } from "../helpers/build-stack";
import { copyImage, processesWith } from "../helpers/built-images";
import { waitFor } from "../helpers/engine";
import { api } from "../helpers/http";
import type { Tenant } from "../helpers/fixtures";
import { pythonProject, stackBuilds } from "../helpers/stack-builds";

// Tenant A attacks tenant B through its own builds, as issue 32 found possible: a RUN step that
// leaves buildah's chroot (a static binary, as an attacker ships it) and looks for B's layers,
// files, token and processes, the host's processes and services; a process left behind; base
// images of B's; a fork bomb, a disk filler, a memory hog. Each build runs in its own sandbox
// and cgroup (src/server/jobs/builder/sandbox): these are the regression tests. Only loopback
// traffic; every abuse is bounded by the settings below and cleaned up by the build's end.

const BOUNDS = {
  HANGAR_BUILD_PROCESSES: "64",
  HANGAR_BUILD_DISK: "96Mi",
  HANGAR_BUILD_MEMORY: "384Mi",
  HANGAR_BUILD_CPUS: "1",
};
const PACKAGE = `PACKAGE-OK-${randomUUID()}`;
const ID = randomUUID().slice(0, 8);
const B_SECRET = `B-SECRET-${randomUUID().replace(/-/g, "")}`;

let stack: BuildStack;
let b: { tenant: Tenant; baseImage: string };
let packages: http.Server;
let packagesPort: number;
let escapeDir: string;
let escape: Buffer;

const builds = stackBuilds(() => stack);
const { buildLog, finished } = builds;
const a = () => stack.tenant;

beforeAll(async () => {
  // A package index on loopback that HANGAR_BUILD_EGRESS lets builds reach (through the proxy).
  packages = http.createServer((_req, res) => res.end(`${PACKAGE}\n`));
  await new Promise<void>((resolve) => packages.listen(0, "127.0.0.1", resolve));
  packagesPort = (packages.address() as AddressInfo).port;
  escapeDir = mkdtempSync(path.join(tmpdir(), "hangar-escape-"));
  const binary = path.join(escapeDir, "escape");
  const cc = spawnSync("gcc", ["-static", "-O2", "-o", binary, "tests/fixtures/escape-and-run.c"], {
    encoding: "utf8",
  });
  if (cc.status !== 0) throw new Error(cc.stderr);
  escape = readFileSync(binary);
  stack = await startBuildStack({
    HANGAR_BUILD_CONCURRENCY: "2",
    HANGAR_BUILD_TIMEOUT_SECONDS: "90",
    HANGAR_BUILD_EGRESS: `public,127.0.0.1:${packagesPort}`,
    ...BOUNDS,
  });
  b = await stack.addTenant();
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  packages?.close();
  if (escapeDir) rmSync(escapeDir, { recursive: true, force: true });
});

/** Builds `entries` for `tenant` with `command` as its build_command; the finished revision. */
async function build(
  tenant: Tenant,
  prefix: string,
  entries: ReturnType<typeof pythonProject>,
  command?: string,
) {
  const deploymentId = await builds.deployment(tenant.keys.editor, prefix);
  const revisionId = await builds.uploadAndBuild(
    tenant.keys.editor,
    deploymentId,
    entries,
    command ? { build_command: command } : undefined,
  );
  const revision = await finished(revisionId, 150_000);
  return { revision, log: await buildLog(revisionId) };
}

/** What A's escaped step runs outside its chroot, with the tools it finds there (curl...). */
function probe(dataDir: string, hangarPort: string, registryPort: string) {
  const curl = (args: string) => `curl -sS -m 4 ${args} 2>&1`;
  const direct = (url: string) => curl(`--noproxy '*' ${url}`);
  const proxied = (url: string) => curl(`-x http://127.0.0.1:3128 ${url}`);
  const tunnelled = (url: string) => curl(`-p -x http://127.0.0.1:3128 ${url}`);
  return [
    "echo ROOT: $(ls / | tr '\\n' ' ')",
    "echo COMMANDS: $(cat /proc/[0-9]*/comm 2>/dev/null | sort -u | tr '\\n' ' ')",
    "echo IFACES: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ')",
    // B's code and layers, B's build token, wherever the worker keeps them.
    // (A running step's root holds /proc, /sys and /dev: a grep reading /dev/zero never ends.)
    `grep -rl -D skip --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev 'B-SECRET-[0-9a-f]' ${dataDir} 2>/dev/null | sed 's/^/FOUND:/'`,
    `find ${dataDir} -name auth.json 2>/dev/null | sed 's/^/TOKEN:/'`,
    // Poisoning: a file dropped into every cached layer in reach.
    `for d in ${dataDir}/buildah/*/vfs/dir/* ${dataDir}/buildah/workspaces/*/storage/vfs/dir/*; do [ -d "$d" ] && echo x > "$d/POISON-${ID}" 2>/dev/null && echo "WROTE $d"; done`,
    `touch /tmp/hangar-escape-${ID} && echo TOUCHED`,
    // The host's services, directly and through the egress proxy.
    `echo DIRECT-HANGAR: $(${direct(`http://127.0.0.1:${hangarPort}/healthz`)})`,
    `echo DIRECT-REGISTRY: $(${direct(`http://127.0.0.1:${registryPort}/v2/`)})`,
    `echo DIRECT-METADATA: $(${direct("http://169.254.169.254/latest/meta-data/")})`,
    `echo PROXY-HANGAR: $(${proxied(`-o /dev/null -w %{http_code} http://127.0.0.1:${hangarPort}/healthz`)})`,
    `echo PROXY-METADATA: $(${proxied("-o /dev/null -w %{http_code} http://169.254.169.254/latest/meta-data/")})`,
    `echo PROXY-PACKAGE: $(${proxied(`http://127.0.0.1:${packagesPort}/simple/`)})`,
    `echo CONNECT-DB: $(${tunnelled("http://127.0.0.1:5432/")})`,
    `echo CONNECT-PACKAGE: $(${tunnelled(`http://127.0.0.1:${packagesPort}/simple/`)})`,
    // A process meant to outlive the build, reading what later builds leave.
    `setsid sh -c 'while :; do sleep 1; done # LINGER-${ID}' > /dev/null 2>&1 &`,
    "echo PROBED",
  ].join("\n");
}

describe("one workspace's build against another's (issue 32)", () => {
  let probeLog: string[];
  let probeStatus: string;
  let bFirst: Awaited<ReturnType<typeof build>>;

  beforeAll(async () => {
    bFirst = await build(b.tenant, "victim", pythonProject(b.baseImage, `graph = '${B_SECRET}'\n`));
    expect(bFirst.revision.status, bFirst.log.join("\n")).toBe("DEPLOYED");
    const port = new URL(stack.baseUrl).port;
    const registryPort = stack.registryHost.split(":")[1]!;
    const script = probe(stack.dataDir, port, registryPort);
    const attack = await build(
      a(),
      "attacker",
      pythonProject(stack.baseImage, "graph = 'a'\n", [
        { path: "tools/escape", content: escape, mode: 0o755 },
        { path: "tools/probe.sh", content: script },
      ]),
      `./tools/escape "$(cat tools/probe.sh)"`,
    );
    probeLog = attack.log;
    probeStatus = attack.revision.status;
  }, 300_000);

  const line = (prefix: string) => probeLog.find((l) => l.startsWith(prefix)) ?? "";

  it("leaves its chroot into a root of its own: no host folders, no host processes, no host network", () => {
    expect(probeStatus, probeLog.join("\n")).toBe("DEPLOYED");
    expect(probeLog).toContain("ESCAPED");
    expect(probeLog).toContain("PROBED");
    const root = line("ROOT:").split(" ").slice(1);
    expect(root).toContain("usr");
    for (const hostFolder of ["root", "home", "work", "opt", "srv", "boot", "mnt", "media"])
      expect(root).not.toContain(hostFolder);
    const commands = line("COMMANDS:");
    for (const hostProcess of ["postgres", "redis-server", "docker-registry", "next-server"])
      expect(commands).not.toContain(hostProcess);
    expect(line("IFACES:")).toBe("IFACES: lo");
    // The host's /tmp is not the one the step wrote to.
    expect(probeLog).toContain("TOUCHED");
    expect(existsSync(`/tmp/hangar-escape-${ID}`)).toBe(false);
  });

  it("finds none of B's code, layers or token, and poisons only its own workspace's layers", () => {
    expect(probeLog.filter((l) => l.startsWith("FOUND:"))).toEqual([]);
    expect(probeLog.join("\n")).not.toContain(B_SECRET);
    expect(probeLog.filter((l) => l.startsWith("TOKEN:"))).toEqual([]);
    const own = `${stack.dataDir}/buildah/workspaces/${a().workspaceId}/`;
    for (const wrote of probeLog.filter((l) => l.startsWith("WROTE ")))
      expect(wrote.slice("WROTE ".length).startsWith(own), wrote).toBe(true);
  });

  it("reaches no host service directly, and through the proxy only what HANGAR_BUILD_EGRESS allows", () => {
    expect(line("DIRECT-HANGAR:")).toMatch(/^DIRECT-HANGAR: curl: \(7\) Failed to connect/);
    expect(line("DIRECT-REGISTRY:")).toMatch(/^DIRECT-REGISTRY: curl: \(7\) Failed to connect/);
    expect(line("DIRECT-METADATA:")).toMatch(/^DIRECT-METADATA: curl: \(7\) Failed to connect/);
    expect(line("PROXY-HANGAR:")).toBe("PROXY-HANGAR: 403");
    expect(line("PROXY-METADATA:")).toBe("PROXY-METADATA: 403");
    expect(line("PROXY-PACKAGE:")).toBe(`PROXY-PACKAGE: ${PACKAGE}`);
    expect(line("CONNECT-DB:")).toBe("CONNECT-DB: curl: (56) CONNECT tunnel failed, response 403");
    expect(line("CONNECT-PACKAGE:")).toBe(`CONNECT-PACKAGE: ${PACKAGE}`);
    // Each refusal is in the build's log, saying which rule refused it.
    const port = new URL(stack.baseUrl).port;
    expect(probeLog).toContain(
      `Egress refused: 127.0.0.1:${port} is a loopback address, which builds may not reach (HANGAR_BUILD_EGRESS)`,
    );
    expect(probeLog).toContain(
      "Egress refused: 169.254.169.254:80 is a cloud metadata address, which builds may not reach (HANGAR_BUILD_EGRESS)",
    );
    expect(probeLog).toContain(
      "Egress refused: 127.0.0.1:5432 is a loopback address, which builds may not reach (HANGAR_BUILD_EGRESS)",
    );
  });

  it("leaves no process behind once the build ended", () => {
    expect(processesWith(`LINGER-${ID}`)).toEqual([]);
  });

  it("B's next build and image hold nothing A dropped", async () => {
    const again = await build(
      b.tenant,
      "victim-again",
      pythonProject(b.baseImage, `graph = '${B_SECRET}'\n`),
      "ls -a / /deps/app",
    );
    expect(again.revision.status, again.log.join("\n")).toBe("DEPLOYED");
    expect(again.log.join("\n")).not.toContain("POISON");
    const reader = await issueBuildToken(
      stack.db,
      {
        id: again.revision.id,
        deploymentId: again.revision.deploymentId,
        workspaceId: b.tenant.workspaceId,
      },
      300,
    );
    const image = copyImage(again.revision.imageRef!, `oauth2accesstoken:${reader.token}`);
    expect(image.files.get("deps/app/agent/graph.py")?.toString()).toBe(`graph = '${B_SECRET}'\n`);
    expect([...image.files.keys()].filter((file) => file.includes("POISON"))).toEqual([]);
  }, 180_000);

  it("cannot build from B's image, as base_image or COPY --from, though this worker holds it", async () => {
    const asBase = await build(a(), "borrow-base", pythonProject(b.baseImage, "graph = 'a'\n"));
    expect(asBase.revision.status).toBe("BUILD_FAILED");
    expect(asBase.revision.statusMessage, asBase.revision.statusMessage!).toMatch(
      new RegExp(
        `^Pulling ${b.baseImage.replace(/[.]/g, "\\.")}:3\\.11 failed: .*\\(a build pulls with its own workspace's credentials`,
      ),
    );
    const copied = await build(
      a(),
      "borrow-copy",
      pythonProject(stack.baseImage, "graph = 'a'\n", [], {
        dockerfile_lines: [`COPY --from=${b.baseImage}:3.11 /bin/busybox /stolen`],
      }),
    );
    expect(copied.revision.status).toBe("BUILD_FAILED");
    expect(copied.revision.statusMessage).toMatch(/^Pulling .*langgraph-base:3\.11 failed: /);
    // Refused before any step ran.
    expect(copied.log.filter((l) => /^STEP \d+\/\d+: /.test(l))).toEqual([]);
  }, 180_000);
});

/** A build of A's whose step sleeps (`marker`), once the step runs: its ids and its process. */
async function heldBuild(prefix: string, marker: string) {
  const deploymentId = await builds.deployment(a().keys.editor, prefix);
  const revisionId = await builds.uploadAndBuild(
    a().keys.editor,
    deploymentId,
    pythonProject(stack.baseImage, "graph = 'a'\n"),
    { build_command: `echo ${prefix}-now && ${marker}` },
  );
  await waitFor(
    () => buildLog(revisionId),
    (log) => log.includes(`${prefix}-now`),
    { timeoutMs: 60_000, what: "the step to start" },
  );
  const [step] = await waitFor(
    async () => processesWith(marker),
    (found) => found.length > 0,
    { what: "the step's process" },
  );
  const interrupt = async () => {
    const interrupted = await api(
      `/v2/deployments/${deploymentId}/revisions/${revisionId}/interrupt`,
      { key: a().keys.editor, baseUrl: stack.baseUrl, method: "POST" },
    );
    expect(interrupted.status, interrupted.text).toBe(200);
  };
  return { revisionId, step: step!, interrupt };
}

describe("a build's bounds", () => {
  it("runs in a cgroup of its own holding HANGAR_BUILD_MEMORY, _PROCESSES and _CPUS, gone with the build", async () => {
    const marker = `sleep 45.${ID.length}`;
    const { step, interrupt } = await heldBuild("bounded", marker);
    const bounds = boundsOf(step.pid);
    expect(bounds.group).toContain("/hangar-builds/");
    expect(bounds.memoryBytes).toBe(384 * 1024 * 1024);
    expect(bounds.pidsMax).toBe(64);
    expect(bounds.cpus).toBe(1);
    await interrupt();
    await waitFor(
      async () => processesWith(marker).length + (existsSync(bounds.group) ? 1 : 0),
      (left) => left === 0,
      { timeoutMs: 15_000, what: "the step and its cgroup to go" },
    );
  }, 120_000);

  it("stops a fork bomb at HANGAR_BUILD_PROCESSES, every process of it gone", async () => {
    const marker = `BOMB-${ID}`;
    const { revision } = await build(
      a(),
      "bomb",
      pythonProject(stack.baseImage, "graph = 'a'\n"),
      `bomb() { while :; do bomb & done; }; bomb # ${marker}`,
    );
    expect(revision.status).toBe("BUILD_FAILED");
    // The bomb either holds the limit (stopped after 5 s) or dies of it (the step fails).
    expect(revision.statusMessage).toMatch(
      /^The build (held HANGAR_BUILD_PROCESSES \(64 processes\) for 5 s and was stopped\.|reached HANGAR_BUILD_PROCESSES \(64 processes\) and a step could not start more: STEP 5\/6: RUN )/,
    );
    expect(processesWith(marker)).toEqual([]);
  }, 150_000);

  it("stops a build that writes past HANGAR_BUILD_DISK in many files", async () => {
    const { revision, log } = await build(
      a(),
      "filler",
      pythonProject(stack.baseImage, "graph = 'a'\n"),
      "i=0; while [ $i -lt 40 ]; do busybox dd if=/dev/zero of=/fill$i bs=1048576 count=8 2>/dev/null; i=$((i+1)); done; sleep 30",
    );
    expect(revision.status, log.join("\n")).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toMatch(
      /^The build wrote \d+(\.\d)? MiB, more than HANGAR_BUILD_DISK \(96Mi\), and was stopped\.$/,
    );
  }, 150_000);

  it("refuses one file larger than HANGAR_BUILD_DISK", async () => {
    const { revision, log } = await build(
      a(),
      "big-file",
      pythonProject(stack.baseImage, "graph = 'a'\n"),
      "busybox dd if=/dev/zero of=/big bs=1048576 count=200",
    );
    expect(revision.status, log.join("\n")).toBe("BUILD_FAILED");
    expect(revision.statusMessage, log.join("\n")).toContain(
      "larger than HANGAR_BUILD_DISK (96Mi)",
    );
  }, 150_000);

  it("ends a step that takes more than HANGAR_BUILD_MEMORY, saying so", async () => {
    const { revision, log } = await build(
      a(),
      "hog",
      pythonProject(stack.baseImage, "graph = 'a'\n"),
      "busybox sort < /dev/zero",
    );
    expect(revision.status, log.join("\n")).toBe("BUILD_FAILED");
    expect(revision.statusMessage, log.join("\n")).toMatch(
      /^The build ran out of memory \(HANGAR_BUILD_MEMORY=384Mi\): /,
    );
  }, 150_000);

  it("ends whole when its worker is killed mid-build: no process, no cgroup left", async () => {
    const marker = `sleep 46.${ID.length}`;
    const { revisionId, step, interrupt } = await heldBuild("orphaned", marker);
    const { group } = boundsOf(step.pid);
    stack.worker.process.kill("SIGKILL");
    await waitFor(
      async () => [
        ...processesWith(marker),
        ...processesWith(`${stack.dataDir}/buildah/workspaces/`),
      ],
      (left) => left.length === 0,
      { timeoutMs: 15_000, what: "the build's processes to end with their worker" },
    );
    // The next worker removes the group the dead one left, and builds the revision again. The
    // waits are for a loaded machine (CI runs three integration files at once); a failure says
    // what the new worker and the server printed.
    await stack.restartWorker();
    try {
      await waitFor(
        async () => existsSync(group),
        (left) => !left,
        { timeoutMs: 30_000, what: "the dead worker's build group to be removed" },
      );
      await interrupt();
      expect((await builds.finished(revisionId, 90_000)).status).toBe("INTERRUPTED");
      // A group such a worker left that nothing ended at the next start (a process was still
      // exiting then) goes before the next build.
      const dead = spawnSync("true").pid!;
      const leftBehind = path.join(path.dirname(group), `${dead}-left-behind`);
      mkdirSync(leftBehind);
      const next = await build(
        a(),
        "after-orphan",
        pythonProject(stack.baseImage, "graph = 'a'\n"),
      );
      expect(next.revision.status).toBe("DEPLOYED");
      expect(existsSync(leftBehind)).toBe(false);
    } catch (error) {
      const errors = stack
        .serverOutput()
        .split("\n")
        .filter((l) => /"level":"(error|warn)"/.test(l));
      (error as Error).message +=
        `\nThe new worker printed:\n${stack.worker.output().slice(-4000)}` +
        `\nThe server's warnings and errors:\n${errors.join("\n").slice(-4000)}`;
      throw error;
    }
  }, 300_000);
});
