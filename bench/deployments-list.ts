// `npm run bench:list`: seeds 100,000 deployments in one workspace of a throwaway database and
// measures GET /v2/deployments (filters, deep offsets) against a baseline route that returns a
// fixed JSON body of the same size, in the same run. Prints ratios (list / baseline).
import { generateApiKey } from "../src/server/auth/api-keys";
import { createDb } from "../src/server/db";
import { createTestDatabase } from "../tests/helpers/database";
import { startServer } from "../tests/helpers/server";
import { ensurePostgres } from "../tests/helpers/services";
import { buildIfStale } from "../scripts/build-if-stale";
import { load } from "./http-load";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 100_000);
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

await ensurePostgres();
buildIfStale();
const database = await createTestDatabase("hangar_bench");
const db = createDb(database.url, 2);
try {
  const org = await db.organization.create({ data: { name: "bench" } });
  const ws = await db.workspace.create({ data: { organizationId: org.id, name: "bench" } });
  const key = generateApiKey();
  await db.apiKey.create({
    data: {
      organizationId: org.id,
      workspaceId: ws.id,
      name: "bench",
      role: "viewer",
      prefix: key.prefix,
      keyHash: key.hash,
    },
  });
  const tagKey = await db.tagKey.create({ data: { workspaceId: ws.id, key: "team" } });
  const tag = await db.tagValue.create({ data: { tagKeyId: tagKey.id, value: "payments" } });

  const seeded = performance.now();
  await db.$executeRawUnsafe(`
    INSERT INTO deployments (id, workspace_id, name, source, deployment_type, status, source_config, source_revision_config,
                             listener_id, image_version, created_at, updated_at)
    SELECT gen_random_uuid(), '${ws.id}', 'agent-' || g, 'internal_container',
           (ARRAY['dev_free','dev','prod'])[1 + g % 3]::"DeploymentType",
           (ARRAY['AWAITING_DATABASE','READY','READY','READY','UNUSED'])[1 + g % 5]::"DeploymentStatus",
           jsonb_build_object('deployment_type', (ARRAY['dev_free','dev','prod'])[1 + g % 3], 'custom_url', null),
           jsonb_build_object('image_uri', 'registry.example/agent:' || g),
           CASE WHEN g % 10 = 0 THEN gen_random_uuid() END, 'v' || (g % 50),
           now() - make_interval(secs => g), now()
    FROM generate_series(1, ${COUNT}) AS g`);
  await db.$executeRawUnsafe(`
    INSERT INTO deployment_tags (deployment_id, tag_value_id, tag_key_id)
    SELECT id, '${tag.id}', '${tagKey.id}' FROM deployments WHERE workspace_id = '${ws.id}' AND name LIKE '%7'`);
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  console.log(
    `Seeded ${COUNT} deployments in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const server = await startServer({
    DATABASE_URL: database.url,
    HANGAR_BENCH: "true",
    HANGAR_RATELIMIT_ENABLED: "false",
  });
  const headers = { "x-api-key": key.key };
  const scenarios: [string, string][] = [
    ["first page (limit 20)", ""],
    ["limit 100", "limit=100"],
    ["status=READY", "status=READY"],
    ["deployment_type=prod", "deployment_type=prod"],
    ["name_contains=nt-999", "name_contains=nt-999"],
    ["image_version=v7", "image_version=v7"],
    ["tag_value_ids", `tag_value_ids=${tag.id}`],
    ["remote_reconciled=true", "remote_reconciled=true"],
    ["offset 50,000", "offset=50000"],
    [`offset ${COUNT - 20}`, `offset=${COUNT - 20}`],
    [
      "combined filters, offset 200",
      `status=READY&deployment_type=dev&image_version=v1&offset=200`,
    ],
  ];
  const rows: string[][] = [];
  for (const [label, query] of scenarios) {
    const url = `${server.url}/v2/deployments?${query}`;
    await load(url, { total: 20, concurrency: 2, headers }); // warm-up
    const list = await load(url, { total: TOTAL, concurrency: CONCURRENCY, headers });
    const size = Math.round(list.bytes / list.requests);
    const baseUrl = `${server.url}/bench/baseline?bytes=${size}`;
    await load(baseUrl, { total: 20, concurrency: 2 });
    const base = await load(baseUrl, { total: TOTAL, concurrency: CONCURRENCY });
    if (!list.statuses[200] || list.statuses[200] !== list.requests)
      throw new Error(`${label}: ${JSON.stringify(list.statuses)}`);
    rows.push([
      label,
      String(size),
      list.rps.toFixed(0),
      base.rps.toFixed(0),
      (list.rps / base.rps).toFixed(2),
      `${list.p50.toFixed(1)} / ${list.p99.toFixed(1)}`,
      `${base.p50.toFixed(1)} / ${base.p99.toFixed(1)}`,
      (list.p50 / base.p50).toFixed(2),
    ]);
  }
  await server.stop();
  const header = [
    "scenario",
    "bytes",
    "list rps",
    "baseline rps",
    "rps ratio",
    "list p50/p99 ms",
    "baseline p50/p99 ms",
    "p50 ratio",
  ];
  console.log(
    `\nGET /v2/deployments over ${COUNT} deployments; ${TOTAL} requests x ${CONCURRENCY} connections each\n`,
  );
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} finally {
  await db.$disconnect();
  await database.drop();
}
