// `npm run bench:signin`: does sign-in take longer for an existing account than for an unknown
// email (issue 28, finding 4)? One built server (rate limits off, so no attempt is refused
// early) takes pairs of wrong-password sign-ins, one for an account and one for an unknown
// email, in random order within each pair; prints both medians and their ratio (~1 is right;
// before the fix an unknown email skipped the password hash: x2.8 here, slower in 40 of 40).
import { randomUUID } from "node:crypto";
import { buildIfStale } from "../scripts/build-if-stale";
import { hashPassword } from "../src/server/auth/passwords";
import { createDb } from "../src/server/db";
import { createTestDatabase } from "../testing/database";
import { startServer } from "../testing/server";
import { ensurePostgres } from "../testing/services";

const PAIRS = Number(process.env.BENCH_PAIRS ?? 40);
const WARM_UP = 5;

/** One wrong-password attempt through next-auth's credentials callback; the POST's duration. */
async function attempt(base: string, email: string): Promise<number> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const body = new URLSearchParams({ csrfToken, email, password: "not-the-password" });
  const started = performance.now();
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  await res.arrayBuffer();
  const elapsed = performance.now() - started;
  if (!res.headers.get("location")?.includes("error=CredentialsSignin"))
    throw new Error(`unexpected answer for ${email}: ${res.status} ${res.headers.get("location")}`);
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

await ensurePostgres();
buildIfStale();
const database = await createTestDatabase("hangar_bench");
const known = `bench-${randomUUID()}@example.test`;
{
  const db = createDb(database.url, 2);
  await db.user.create({
    data: { email: known, passwordHash: await hashPassword("the-real-password") },
  });
  await db.$disconnect();
}
const server = await startServer({
  DATABASE_URL: database.url,
  HANGAR_RATELIMIT_ENABLED: "false",
});
try {
  const times = { existing: [] as number[], unknown: [] as number[] };
  let existingSlower = 0;
  for (let i = 0; i < WARM_UP + PAIRS; i++) {
    const unknown = `nobody-${randomUUID()}@example.test`;
    const order =
      Math.random() < 0.5 ? (["existing", "unknown"] as const) : (["unknown", "existing"] as const);
    const pair = { existing: 0, unknown: 0 };
    for (const which of order)
      pair[which] = await attempt(server.url, which === "existing" ? known : unknown);
    if (i < WARM_UP) continue;
    times.existing.push(pair.existing);
    times.unknown.push(pair.unknown);
    if (pair.existing > pair.unknown) existingSlower++;
  }
  const existing = median(times.existing);
  const unknown = median(times.unknown);
  console.log(`\nWrong-password sign-ins, ${PAIRS} pairs (after ${WARM_UP} warm-up pairs)\n`);
  console.table({
    "existing account": { "median ms": existing.toFixed(1) },
    "unknown email": { "median ms": unknown.toFixed(1) },
  });
  console.log(
    `existing/unknown: median x${(existing / unknown).toFixed(2)}; ` +
      `the existing account was slower in ${existingSlower} of ${PAIRS} pairs`,
  );
} finally {
  await server.stop();
  await database.drop();
}
