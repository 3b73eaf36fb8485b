// `npm run bench:dashboard`: the deployments page in Chromium with 10,000 deployments in the
// workspace, against a baseline workspace of 20 in the same run and on the same server: time from
// navigation to the table being visible (p50/p99 over several runs) and the ratio, plus the
// page's first-load JavaScript (transferred, i.e. gzip as served, and decoded). Runs on the machine's
// PostgreSQL and on the embedded default (BENCH_DATABASES picks), printing both.
//
// What the first-load count is: every script a cold load of /deployments fetches until the
// network is idle: the document's <script> tags and every chunk they load in turn (the client
// components of the page's RSC payload, anything import()ed while hydrating or on mount). Link
// prefetching is left out: its requests (`Next-Router-Prefetch` header) are refused, so the
// chunks of other routes' client components, which decoding a prefetched payload would load,
// are never fetched. The count is then the same from run to run and is the page's own code.
import { chromium, type Browser, type Page, type Request } from "@playwright/test";
import { buildIfStale } from "../scripts/build-if-stale";
import { hashPassword } from "../src/server/auth/passwords";
import { createDb, type Db } from "../src/server/db";
import { chromiumLaunchOptions, ensureChromium } from "../testing/chromium";
import { BENCH_PASSWORD, signedInPage } from "./signed-in-page";
import { startServer } from "../testing/server";
import { selectedDatabases } from "./databases";

const BIG = Number(process.env.BENCH_DEPLOYMENTS ?? 10_000);
const SMALL = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** The page's first-load JavaScript budget, gzip as served: the run fails when over it. */
const BUDGET_KIB = 170;

/** A workspace of `count` deployments (seeded by SQL) and an admin user who belongs only to it. */
async function seedWorkspace(db: Db, orgId: string, label: string, count: number) {
  const ws = await db.workspace.create({ data: { organizationId: orgId, name: label } });
  const email = `${label}@bench.test`;
  const user = await db.user.create({
    data: { email, name: label, passwordHash: await hashPassword(BENCH_PASSWORD) },
  });
  await db.membership.create({ data: { userId: user.id, workspaceId: ws.id, role: "admin" } });
  await db.$executeRawUnsafe(`
    INSERT INTO deployments (id, workspace_id, name, source, deployment_type, status, source_config, source_revision_config,
                             image_version, created_at, updated_at)
    SELECT gen_random_uuid(), '${ws.id}', 'agent-' || g, 'internal_container',
           (ARRAY['dev_free','dev','prod'])[1 + g % 3]::"DeploymentType",
           (ARRAY['AWAITING_DATABASE','READY','READY','READY','UNUSED'])[1 + g % 5]::"DeploymentStatus",
           jsonb_build_object('deployment_type', (ARRAY['dev_free','dev','prod'])[1 + g % 3], 'custom_url', 'https://agent-' || g || '.example.com'),
           jsonb_build_object('image_uri', 'registry.example/agent:' || g),
           'v' || (g % 50), now() - make_interval(secs => g), now()
    FROM generate_series(1, ${count}) AS g`);
  return email;
}

/** Milliseconds from starting the navigation until the table (with its rows) is visible. */
async function timeToTable(page: Page): Promise<number> {
  const started = performance.now();
  await page.goto("/deployments", { waitUntil: "commit" });
  await page
    .getByRole("table", { name: "Deployments" })
    .locator("tbody tr")
    .first()
    .waitFor({ state: "visible" });
  return performance.now() - started;
}

/** JS bytes of a cold first load of /deployments: as transferred (gzip) and decoded. */
async function firstLoadJs(browser: Browser, baseUrl: string, email: string) {
  const context = (await signedInPage(browser, baseUrl, email)).context();
  // A new context has an empty HTTP cache; the session cookie comes along in its storage state.
  const fresh = await browser.newContext({
    baseURL: baseUrl,
    storageState: await context.storageState(),
  });
  const cold = await fresh.newPage();
  // Prefetches of the links on the page (other routes' RSC payloads, whose decoding would load
  // those routes' client chunks) are not this page's first load.
  let prefetches = 0;
  await cold.route(/[?&]_rsc=/, (route, request) => {
    if (!request.headers()["next-router-prefetch"]) return route.fallback();
    prefetches++;
    return route.abort();
  });
  const scripts: Promise<[number, number, string]>[] = [];
  const onFinished = (request: Request) => {
    if (request.resourceType() !== "script") return;
    scripts.push(
      Promise.all([request.sizes(), request.response().then((r) => r?.body())]).then(
        ([sizes, body]) => [sizes.responseBodySize, body?.length ?? 0, request.url()],
      ),
    );
  };
  cold.on("requestfinished", onFinished);
  await cold.goto("/deployments", { waitUntil: "networkidle" });
  // A request finishing after this would read its body from a closed page (an unhandled rejection).
  cold.off("requestfinished", onFinished);
  const sizes = await Promise.all(scripts);
  await fresh.close();
  await context.close();
  // BENCH_JS_FILES=1 lists every file, largest first (to see what a change moved).
  if (process.env.BENCH_JS_FILES)
    for (const [t, d, url] of [...sizes].sort((a, b) => b[0] - a[0]))
      console.log(`${(t / 1024).toFixed(1)} KiB gzip, ${(d / 1024).toFixed(1)} KiB: ${url}`);
  return {
    prefetches,
    files: sizes.length,
    transferred: sizes.reduce((n, [t]) => n + t, 0),
    decoded: sizes.reduce((n, [, d]) => n + d, 0),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Both workspaces on one database, timed in Chromium; then the page's first-load JavaScript. */
async function measure(url: string): Promise<boolean> {
  const db = createDb(url, 2);
  const org = await db.organization.create({ data: { name: "bench" } });
  const seeded = performance.now();
  const bigUser = await seedWorkspace(db, org.id, "big", BIG);
  const smallUser = await seedWorkspace(db, org.id, "small", SMALL);
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  await db.$disconnect();
  console.log(
    `Seeded ${BIG} + ${SMALL} deployments in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const server = await startServer({ DATABASE_URL: url, HANGAR_RATELIMIT_ENABLED: "false" });
  ensureChromium();
  const browser = await chromium.launch(chromiumLaunchOptions);

  try {
    const big = await signedInPage(browser, server.url, bigUser);
    const small = await signedInPage(browser, server.url, smallUser);
    for (let i = 0; i < 3; i++) await Promise.all([timeToTable(big), timeToTable(small)]); // warm-up
    const times = { big: [] as number[], small: [] as number[] };
    // Alternate, so drift on a shared machine hits both sides alike.
    for (let i = 0; i < RUNS; i++) {
      times.big.push(await timeToTable(big));
      times.small.push(await timeToTable(small));
    }
    const js = await firstLoadJs(browser, server.url, bigUser);

    const row = (label: string, t: number[]) =>
      `| ${label} | ${percentile(t, 50).toFixed(0)} | ${percentile(t, 99).toFixed(0)} |`;
    console.log(`\n/deployments in Chromium: navigation to table visible, ${RUNS} runs each\n`);
    console.log("| workspace | p50 ms | p99 ms |\n|---|---|---|");
    console.log(row(`${BIG} deployments`, times.big));
    console.log(row(`${SMALL} deployments (baseline)`, times.small));
    console.log(
      `| ratio | ${(percentile(times.big, 50) / percentile(times.small, 50)).toFixed(2)} | ${(percentile(times.big, 99) / percentile(times.small, 99)).toFixed(2)} |`,
    );
    console.log(
      `\nFirst-load JavaScript of /deployments (cold cache): ${js.files} files (${js.prefetches} link prefetches refused, not counted)\n`,
    );
    console.log("| measure | KiB |\n|---|---|");
    console.log(`| transferred (gzip as served) | ${(js.transferred / 1024).toFixed(1)} |`);
    console.log(`| decoded (raw) | ${(js.decoded / 1024).toFixed(1)} |`);
    const over = js.transferred / 1024 > BUDGET_KIB;
    console.log(
      `\nBudget: ${BUDGET_KIB} KiB gzip; ${over ? "OVER BUDGET" : "within budget"} (${(js.transferred / 1024).toFixed(1)} KiB)`,
    );
    return !over;
  } finally {
    await browser.close();
    await server.stop();
  }
}

buildIfStale();
for (const open of selectedDatabases("hangar_bench_dashboard")) {
  const database = await open();
  try {
    console.log(`\n## ${database.label}`);
    if (!(await measure(database.url))) process.exitCode = 1;
  } finally {
    await database.close();
  }
}
