// `npm run bench:builds`: what Hangar's build costs over buildah's own. A small project is built
// through Hangar (upload, PATCH, the worker's build with HANGAR_BUILDER=buildah, the push to a
// real registry: the clock runs from the PATCH until the revision leaves BUILDING), and the same
// context with the same Dockerfile is built by `buildah bud` alone, then pushed, on the same
// storage (layer cache) and registry. Every build holds a file no build had before, so no step
// after FROM comes from the cache, alike on both sides. Each side goes first every other round
// (BENCH_ROUNDS, default 5), so a load that drifts weighs on both; medians are printed with the
// ratios. Then two builds at once (HANGAR_BUILD_CONCURRENCY=2, and
// HANGAR_BUILD_WORKSPACE_CONCURRENCY=2 as both are the bench workspace's) against one.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
pushBaseImage(`${baseImage}:3.11`, { user: "oauth2accesstoken", password: baseToken.token });

/** A small project; `unique` makes its context one no build has seen. */
const projectFiles = (unique: string) => [
  {
    path: "langgraph.json",
    content: JSON.stringify({
      graphs: { agent: "./agent/graph.py:graph" },
      dependencies: ["."],
      python_version: "3.11",
      base_image: baseImage,
    }),
  },
  { path: "agent/graph.py", content: `graph = "${unique}"\n` },
  { path: "agent/data.txt", content: randomBytes(256 * 1024).toString("base64") },
];
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

/** buildah alone: the same Dockerfile on a context like Hangar's, `bud`, then the push. */
async function buildahAlone(dockerfile: string, revisionId: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-bench-context-"));
  try {
    const context = path.join(dir, "context");
    for (const file of projectFiles(randomBytes(8).toString("hex"))) {
      mkdirSync(path.dirname(path.join(context, file.path)), { recursive: true });
      writeFileSync(path.join(context, file.path), file.content);
    }
    writeFileSync(path.join(context, "Dockerfile.hangar"), dockerfile);
    writeFileSync(path.join(context, ".dockerignore"), ".env\n.env.*\n");
    const revision = await db.revision.findUniqueOrThrow({
      where: { id: revisionId },
      include: { deployment: true },
    });
    const token = await issueBuildToken(
      db,
      { id: revisionId, deploymentId: revision.deploymentId, workspaceId: ws.id },
      600,
    );
    const auth = Buffer.from(`oauth2accesstoken:${token.token}`).toString("base64");
    writeFileSync(
      path.join(dir, "auth.json"),
      JSON.stringify({ auths: { [registryHost]: { auth } } }),
      { mode: 0o600 },
    );
    writeFileSync(
      path.join(dir, "registries.conf"),
      `[[registry]]\nlocation = "${registryHost}"\ninsecure = true\n`,
    );
    const storage = [
      "--storage-driver",
      "vfs",
      "--root",
      path.join(dataDir, "buildah", "storage"),
      "--runroot",
      path.join(dataDir, "buildah", "run"),
    ];
    const run = (args: string[]) => {
      const result = spawnSync("buildah", [...storage, ...args], {
        cwd: context,
        encoding: "utf8",
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
    const built = performance.now();
    const imageId = readFileSync(path.join(dir, "image-id"), "utf8");
    run([
      "push",
      "--authfile",
      path.join(dir, "auth.json"),
      "--tls-verify=false",
      imageId.trim(),
      `docker://${registryHost}/${ws.id}/${revision.deployment.name}:baseline`,
    ]);
    const pushed = performance.now();
    return { bud: (built - started) / 1000, budAndPush: (pushed - started) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  const hangar: number[] = [];
  const bud: number[] = [];
  const budAndPush: number[] = [];
  const one: number[] = [];
  const two: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Each side goes first every other round: what a build leaves behind weighs on both.
    const sides = [
      async () => hangar.push((await hangarBuild()).seconds),
      async () => {
        const alone = await buildahAlone(dockerfile, warmUp.revisionId);
        bud.push(alone.bud);
        budAndPush.push(alone.budAndPush);
      },
    ];
    for (const side of round % 2 ? sides.reverse() : sides) await side();
    one.push((await hangarBuild()).seconds);
    const pair = [await uploaded(), await uploaded()];
    const started = performance.now();
    await Promise.all(pair.map((build) => build.build()));
    two.push((performance.now() - started) / 1000);
  }
  const rows = [
    ["Through Hangar (PATCH → build over)", median(hangar)],
    ["buildah bud + push alone", median(budAndPush)],
    ["buildah bud alone", median(bud)],
    ["One build (HANGAR_BUILD_CONCURRENCY=2)", median(one)],
    ["Two builds at once", median(two)],
  ] as const;
  console.log(`\nBuilds, median of ${ROUNDS} rounds (seconds)`);
  for (const [label, seconds] of rows) console.log(`  ${label.padEnd(42)} ${seconds.toFixed(2)}`);
  console.log(
    `  buildah bud + push alone / through Hangar:  ${(median(budAndPush) / median(hangar)).toFixed(2)}`,
  );
  console.log(
    `  buildah bud alone / through Hangar:         ${(median(bud) / median(hangar)).toFixed(2)}`,
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
