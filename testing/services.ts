import { execSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";

// Local services the suite needs: started when down (commands from ENVIRONMENT.md).

export const PG_ADMIN_URL =
  process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

function portOpen(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
  });
}

async function waitFor(port: number, what: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await portOpen(port)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not come up on port ${port}`);
}

export async function ensurePostgres(): Promise<void> {
  if (await portOpen(5432)) return;
  if (!existsSync("/etc/postgresql"))
    throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  const version = readdirSync("/etc/postgresql")[0];
  console.log(`Starting PostgreSQL ${version}...`);
  execSync(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`, { stdio: "inherit" });
  await waitFor(5432, "PostgreSQL");
}

export async function ensureRedis(): Promise<void> {
  if (await portOpen(6379)) return;
  console.log("Starting Redis...");
  const result = spawnSync(
    "redis-server",
    [
      "--daemonize",
      "yes",
      "--bind",
      "127.0.0.1",
      "--port",
      "6379",
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    {
      stdio: "inherit",
    },
  );
  if (result.status !== 0)
    throw new Error("redis-server could not be started (apt-get install redis-server)");
  await waitFor(6379, "Redis");
}
