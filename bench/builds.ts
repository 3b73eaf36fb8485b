// `npm run bench:builds`: what Hangar's build costs over buildah's own. A small project is built
// through Hangar (upload, PATCH, the worker's build with HANGAR_BUILDER=buildah, the push to a
// real registry: the clock runs from the PATCH until the revision leaves BUILDING). The
// baseline builds the same context with the same Dockerfile the way Hangar's builder does, in
// the same sandbox (its pull, `bud`, push, as the build user, in a cgroup), but with nothing of
// Hangar around it: no queue, upload, database or engine. A third side, for the sandbox's own
// cost, runs `buildah bud` and `push` bare (as the build user, no sandbox). Each side keeps its
// own layer store under the bench's data folder, so none takes over the worker's. Every build
// holds a file no build had before, so no step after FROM comes from the cache, alike on every
// side. The sides take turns going first (BENCH_ROUNDS, default 5), so a load that drifts weighs
// on all; medians are printed with the ratios. Then two builds at once
// (HANGAR_BUILD_CONCURRENCY=2, and HANGAR_BUILD_WORKSPACE_CONCURRENCY=2 as both are the bench
// workspace's) against one.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale } from "../scripts/build-if-stale";
import { ensureBuildTools, pushBaseImage } from "../testing/base-image";
import { createTestDatabase } from "../testing/database";
import { startRegistry } from "../testing/registry";
import { freePort, startServer, startWorkerProcess, testSecrets } from "../testing/server";
import { ensurePostgres } from "../testing/services";
import { benchWorkspace } from "./workspace";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

ensureBuildTools();
await ensurePostgres();
buildIfStale();
const database = await createTestDatabase("hangar_bench_builds");
const dataDir = mkdtempSync(path.join(tmpdir(), "hangar-bench-builds-"));
const registryPort = await freePort();
const registryHost = `127.0.0.1:${registryPort}`;
const env = {
  ...testSecrets,
  DATABASE_URL: database.url,
  HANGAR_DATA_DIR: dataDir,
  HANGAR_REGISTRY_URL: registryHost,
  HANGAR_REGISTRY_API_URL: `http://${registryHost}`,
  HANGAR_BUILDER: "buildah",
  HANGAR_RATELIMIT_ENABLED: "false",
};
Object.assign(process.env, env);
// Imported once the environment is set: it is parsed on first import.
const { createDb } = await import("../src/server/db");
const { createDeployment } = await import("../src/server/services/deployments/create");
const { patchDeployment } = await import("../src/server/services/deployments/patch");
const { uploadArchive } = await import("../testing/uploads");
const { createPushToken, issueBuildToken } =
  await import("../src/server/services/registry/push-tokens");
const { tarGz } = await import("../tests/helpers/tarball");
const { pythonProject } = await import("../tests/helpers/python-project");
const { buildahBuilder } = await import("../src/server/jobs/builder/images/buildah");
const { buildUser } = await import("../src/server/jobs/builder/images/build-user");
const { buildBoundsFromEnv } = await import("../src/server/jobs/builder/bounds");
const { parseBuildEgress } = await import("../src/server/outbound/build-egress");

const server = await startServer(env);
const registry = await startRegistry({
  port: registryPort,
  realm: `${server.url}/registry/token`,
  service: "hangar-registry",
  certificatePem: await (await fetch(`${server.url}/registry/certificate`)).text(),
});
const worker = await startWorkerProcess(
  {
    ...env,
    HANGAR_BUILD_CONCURRENCY: "2",
    HANGAR_BUILD_WORKSPACE_CONCURRENCY: "2",
    HANGAR_QUEUE_POLL_SECONDS: "0.5",
  },
  { startTimeoutMs: 120_000 },
);
const db = createDb(database.url, 4);

const { ws, actor } = await benchWorkspace(db, "builds");
type CreateInput = Parameters<typeof createDeployment>[2];
const baseDeployment = await createDeployment(db, actor, {
  name: "langgraph-base",
  source: "internal_container",
  source_config: {},
  source_revision_config: {},
} as CreateInput);
const baseToken = await createPushToken(db, actor, baseDeployment.id);
const baseImage = `${registryHost}/${ws.id}/langgraph-base`;
await pushBaseImage(`${baseImage}:3.11`, { user: "oauth2accesstoken", password: baseToken.token });

/** A small project; `unique` makes its context one no build has seen. */
const projectFiles = (unique: string) =>
  pythonProject(baseImage, `graph = "${unique}"\n`, [
    { path: "agent/data.txt", content: randomBytes(256 * 1024).toString("base64") },
  ]);
const BUILD_COMMAND = "mkdir -p out && cat agent/graph.py agent/data.txt > out/bundle.txt";

let deployments = 0;
/**
 * A deployment with its upload in place; `build()` PATCHes it and answers the seconds from the
 * PATCH until the revision's build is over.
 */
async function uploaded() {
  const created = await createDeployment(db, actor, {
    name: `bench-${++deployments}`,
    source: "internal_source",
    source_config: { build_command: BUILD_COMMAND },
    source_revision_config: {},
  } as CreateInput);
  const objectPath = await uploadArchive(
    db,
    actor,
    created.id,
    tarGz(projectFiles(randomBytes(8).toString("hex"))),
    server.url,
  );
  return {
    async build(): Promise<{ seconds: number; revisionId: string }> {
      const started = performance.now();
      const patched = await patchDeployment(db, actor, created.id, {
        source_revision_config: {
          source_tarball_path: objectPath,
          graph_config_path: "langgraph.json",
        },
      });
      const revisionId = patched.deployment.latest_revision_id!;
      for (;;) {
        const { status, statusMessage } = await db.revision.findUniqueOrThrow({
          where: { id: revisionId },
        });
        if (!["QUEUED", "AWAITING_BUILD", "BUILDING"].includes(status)) {
          if (status.endsWith("FAILED")) throw new Error(`build ${status}: ${statusMessage}`);
          return { seconds: (performance.now() - started) / 1000, revisionId };
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
const hangarBuild = async () => (await uploaded()).build();

/** A context like Hangar's: the project, its Dockerfile and .dockerignore; its folder. */
function contextLikeHangars(dockerfile: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-bench-context-"));
  const context = path.join(dir, "context");
  for (const file of projectFiles(randomBytes(8).toString("hex"))) {
    mkdirSync(path.dirname(path.join(context, file.path)), { recursive: true });
    if ("content" in file) writeFileSync(path.join(context, file.path), file.content);
  }
  writeFileSync(path.join(context, "Dockerfile.hangar"), dockerfile);
  writeFileSync(path.join(context, ".dockerignore"), ".env\n.env.*\n");
  return { dir, context };
}

/** A push token of the revision's build (its repository, pull on the workspace's others). */
async function buildToken(revisionId: string) {
  const revision = await db.revision.findUniqueOrThrow({
    where: { id: revisionId },
    include: { deployment: true },
  });
  const token = await issueBuildToken(
    db,
    { id: revisionId, deploymentId: revision.deploymentId, workspaceId: ws.id },
    600,
  );
  return { token: token.token, repository: `${ws.id}/${revision.deployment.name}` };
}

const runAs = await buildUser(() => undefined);
const sandboxed = buildahBuilder({
  root: path.join(dataDir, "bench-sandboxed"),
  runAs,
  bounds: buildBoundsFromEnv(),
  egress: parseBuildEgress("public"),
});
let baselineTag = 0;

/** Hangar's builder alone: pull, bud and push in the build's sandbox, as the build user. */
async function sandboxedAlone(dockerfile: string, revisionId: string) {
  const { dir, context } = contextLikeHangars(dockerfile);
  try {
    const { token, repository } = await buildToken(revisionId);
    const target = {
      registry: registryHost,
      repository,
      workspace: ws.id,
      tag: `baseline-${++baselineTag}`,
      insecure: true,
      credentials: { username: "oauth2accesstoken", password: token },
    };
    const io = { log: () => undefined, signal: new AbortController().signal, target };
    const started = performance.now();
    await sandboxed.build({ contextDir: context, dockerfile: "Dockerfile.hangar", target }, io);
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** buildah bare: `bud`, then the push, as the build user, on a store of its own. */
async function bareAlone(dockerfile: string, revisionId: string) {
  const { dir, context } = contextLikeHangars(dockerfile);
  try {
    const { token, repository } = await buildToken(revisionId);
    const auth = Buffer.from(`oauth2accesstoken:${token}`).toString("base64");
    writeFileSync(
      path.join(dir, "auth.json"),
      JSON.stringify({ auths: { [registryHost]: { auth } } }),
      { mode: 0o600 },
    );
    writeFileSync(
      path.join(dir, "registries.conf"),
      `[[registry]]\nlocation = "${registryHost}"\ninsecure = true\n`,
    );
    const bare = path.join(dataDir, "bench-bare");
    mkdirSync(bare, { recursive: true });
    if (runAs) {
      for (const folder of [dir, context, bare]) chownTree(folder, runAs.uid, runAs.gid);
      chmodSync(dataDir, 0o711);
    }
    const storage = [
      "--storage-driver",
      "vfs",
      "--root",
      path.join(bare, "storage"),
      "--runroot",
      path.join(bare, "run"),
    ];
    const run = (args: string[]) => {
      const result = spawnSync("buildah", [...storage, ...args], {
        cwd: context,
        encoding: "utf8",
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: dir,
        } as unknown as NodeJS.ProcessEnv,
        ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      });
      if (result.status !== 0) throw new Error(`buildah ${args[0]}: ${result.stderr}`);
    };
    const started = performance.now();
    run([
      "--registries-conf",
      path.join(dir, "registries.conf"),
      "bud",
      "--isolation",
      "chroot",
      "--layers",
      "--force-rm",
      "--authfile",
      path.join(dir, "auth.json"),
      "--iidfile",
      path.join(dir, "image-id"),
      "-f",
      "Dockerfile.hangar",
      ".",
    ]);
    const imageId = readFileSync(path.join(dir, "image-id"), "utf8");
    run([
      "push",
      "--authfile",
      path.join(dir, "auth.json"),
      "--tls-verify=false",
      imageId.trim(),
      `docker://${registryHost}/${repository}:bare-${++baselineTag}`,
    ]);
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** chown -R (the build user must own what buildah writes and reads). */
function chownTree(target: string, uid: number, gid: number) {
  spawnSync("chown", ["-R", `${uid}:${gid}`, target]);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

try {
  // A first build pulls the base into the worker's storage and names the Dockerfile every build
  // of this project gets; it is not measured.
  const warmUp = await hangarBuild();
  const { dockerfile } = (await db.revision.findUniqueOrThrow({ where: { id: warmUp.revisionId } }))
    .buildPlan as { dockerfile: string };
  // Each side's first build fills its own store with the base; not measured.
  await sandboxedAlone(dockerfile, warmUp.revisionId);
  await bareAlone(dockerfile, warmUp.revisionId);
  const hangar: number[] = [];
  const alone: number[] = [];
  const bare: number[] = [];
  const one: number[] = [];
  const two: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The sides take turns going first: what a build leaves behind weighs on each alike.
    const sides = [
      async () => hangar.push((await hangarBuild()).seconds),
      async () => alone.push(await sandboxedAlone(dockerfile, warmUp.revisionId)),
      async () => bare.push(await bareAlone(dockerfile, warmUp.revisionId)),
    ];
    for (let i = 0; i < sides.length; i++) await sides[(round + i) % sides.length]!();
    one.push((await hangarBuild()).seconds);
    const pair = [await uploaded(), await uploaded()];
    const started = performance.now();
    await Promise.all(pair.map((build) => build.build()));
    two.push((performance.now() - started) / 1000);
  }
  const rows = [
    ["Through Hangar (PATCH → build over)", median(hangar)],
    ["Hangar's sandboxed buildah alone", median(alone)],
    ["buildah bud + push bare (no sandbox)", median(bare)],
    ["One build (HANGAR_BUILD_CONCURRENCY=2)", median(one)],
    ["Two builds at once", median(two)],
  ] as const;
  console.log(`\nBuilds, median of ${ROUNDS} rounds (seconds)`);
  for (const [label, seconds] of rows) console.log(`  ${label.padEnd(42)} ${seconds.toFixed(2)}`);
  console.log(
    `  sandboxed buildah alone / through Hangar:   ${(median(alone) / median(hangar)).toFixed(2)}  (goal ≥ 0.9)`,
  );
  console.log(
    `  bare buildah / sandboxed buildah:           ${(median(bare) / median(alone)).toFixed(2)}  (the sandbox's cost)`,
  );
  console.log(
    `  two builds at once / one:                   ${(median(two) / median(one)).toFixed(2)}`,
  );
} finally {
  await worker.stop();
  await registry.stop();
  await server.stop();
  await db.$disconnect();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
