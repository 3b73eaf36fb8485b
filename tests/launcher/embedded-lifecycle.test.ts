import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPostgres } from "../../src/server/db/embedded/server";
import { api } from "../helpers/http";
import {
  LAUNCHER_KEY,
  launchHangar,
  newDataDir,
  postmasterPid,
  type Launched,
} from "../helpers/launcher";

// The embedded PostgreSQL's life beside `npm start`: a clean stop, a SIGKILL of everything, the
// admin command and a second worker reaching it, and a data folder of the old PGlite default.

/** The server's process is running (a zombie, exited but not yet reaped, is not). */
const alive = isPostgres;

function runScript(script: string, args: string[], dataDir: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env = { ...process.env, HANGAR_DATA_DIR: dataDir, DATABASE_URL: "" };
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the embedded PostgreSQL under npm start", () => {
  let hangar: Launched;
  const names: string[] = [];
  const call = (p: string, options: Parameters<typeof api>[1] = {}) =>
    api(p, { key: LAUNCHER_KEY, baseUrl: hangar.url, ...options });
  const create = async (name: string) => {
    const res = await call("/v2/deployments", {
      method: "POST",
      body: {
        name,
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/app:1" },
      },
    });
    expect(res.status, res.text).toBe(201);
    names.push(name);
  };
  const listed = async () => {
    const res = await call("/v2/deployments?name_contains=life-&limit=100");
    expect(res.status, res.text).toBe(200);
    return res.body.resources.map((d: { name: string }) => d.name).sort();
  };

  beforeAll(async () => {
    hangar = await launchHangar(await newDataDir());
  });
  afterAll(async () => {
    await hangar?.signal("SIGTERM");
    if (hangar) await rm(hangar.dataDir, { recursive: true, force: true });
  });

  it("generates the first admin password (no published default), prints it once, keeps it 0600", async () => {
    const file = path.join(hangar.dataDir, "admin.password");
    const password = readFileSync(file, "utf8").trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(password).not.toBe("hangar-admin");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(hangar.output().split(password).length - 1).toBe(1);
  });

  it("stops the database last and cleanly on SIGTERM: no server, no lock file left", async () => {
    await create("life-clean");
    const pid = postmasterPid(hangar.dataDir);
    expect(await hangar.signal("SIGTERM")).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(existsSync(path.join(hangar.dataDir, "postgres", "postmaster.pid"))).toBe(false);
    expect(readFileSync(path.join(hangar.dataDir, "postgres.log"), "utf8")).toContain(
      "database system is shut down",
    );
    hangar = await launchHangar(hangar.dataDir);
    expect(await listed()).toEqual(names.sort());
  });

  it("is reached by the admin command and a second worker while npm start runs", async () => {
    const pid = postmasterPid(hangar.dataDir);
    const orgs = await runScript("scripts/hangar.ts", ["org", "list", "--json"], hangar.dataDir);
    expect(orgs.code, orgs.stderr).toBe(0);
    expect(JSON.parse(orgs.stdout).length).toBeGreaterThan(0);
    const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: { ...process.env, HANGAR_DATA_DIR: hangar.dataDir, DATABASE_URL: "" },
    });
    let output = "";
    worker.stdout.on("data", (d) => (output += d));
    await expect.poll(() => output.includes('"worker started"'), { timeout: 30_000 }).toBe(true);
    const exited = new Promise((r) => worker.once("exit", r));
    worker.kill("SIGTERM");
    await exited;
    // Neither stopped the server they found running.
    expect(postmasterPid(hangar.dataDir)).toBe(pid);
    expect(alive(pid)).toBe(true);
    await create("life-after-admin");
  });

  it("recovers after SIGKILL of the process group: the orphaned database is taken over", async () => {
    await create("life-before-kill");
    const pid = postmasterPid(hangar.dataDir);
    await hangar.signal("SIGKILL");
    // The database runs in a session of its own, so it outlived the group: the next start adopts it.
    expect(alive(pid)).toBe(true);
    hangar = await launchHangar(hangar.dataDir);
    expect(hangar.output()).toContain(`left running by an earlier start (pid ${pid})`);
    expect(await listed()).toEqual(names.sort());
    // The adopted server is supervised too, though it is not this start's child (once killed it
    // may linger as a zombie nobody reaps): killed, it is started again.
    process.kill(pid, "SIGKILL");
    await expect.poll(() => alive(pid)).toBe(false);
    await expect
      .poll(
        () =>
          fetch(`${hangar.url}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);
    const restarted = postmasterPid(hangar.dataDir);
    expect(restarted).not.toBe(pid);
    await create("life-after-adopted-crash");
    // And the restarted one is what a stop stops.
    expect(await hangar.signal("SIGTERM")).toBe(0);
    expect(alive(restarted)).toBe(false);
    hangar = await launchHangar(hangar.dataDir);
  });

  it("recovers after SIGKILL of everything, the database too (stale lock file, crash recovery)", async () => {
    await create("life-before-crash");
    const pid = postmasterPid(hangar.dataDir);
    await hangar.signal("SIGKILL");
    process.kill(pid, "SIGKILL");
    await expect.poll(() => alive(pid)).toBe(false);
    expect(existsSync(path.join(hangar.dataDir, "postgres", "postmaster.pid"))).toBe(true);
    hangar = await launchHangar(hangar.dataDir);
    expect(await listed()).toEqual(names.sort());
    expect(postmasterPid(hangar.dataDir)).not.toBe(pid);
  });
});

describe("a lock file left by a crash whose pid now belongs to another program", () => {
  it("is cleared, and the server starts", async () => {
    let hangar = await launchHangar(await newDataDir());
    const lock = path.join(hangar.dataDir, "postgres", "postmaster.pid");
    expect(await hangar.signal("SIGTERM")).toBe(0);
    // This test's own process stands in for the program that got the dead server's pid.
    await writeFile(
      lock,
      `${process.pid}\n${path.dirname(lock)}\n0\n5432\n\n127.0.0.1\n0 0\nready\n`,
    );
    hangar = await launchHangar(hangar.dataDir);
    expect(postmasterPid(hangar.dataDir)).not.toBe(process.pid);
    expect((await api("/readyz", { baseUrl: hangar.url })).status).toBe(200);
    await hangar.signal("SIGTERM");
    await rm(hangar.dataDir, { recursive: true, force: true });
  });
});

describe("a data folder of the old PGlite default", () => {
  it("is refused with a message saying what it is and how to move on; nothing is touched", async () => {
    const dataDir = await newDataDir();
    const legacy = path.join(dataDir, "pglite");
    await mkdir(legacy);
    await writeFile(path.join(legacy, "PG_VERSION"), "17\n");
    await writeFile(path.join(legacy, "base.data"), "old rows");
    await expect(launchHangar(dataDir)).rejects.toThrow(
      /earlier Hangar, whose embedded default was PGlite/,
    );
    expect(await readdir(legacy)).toEqual(["PG_VERSION", "base.data"]);
    expect(existsSync(path.join(dataDir, "postgres"))).toBe(false);
    const admin = await runScript("scripts/hangar.ts", ["org", "list"], dataDir);
    expect(admin.code).toBe(1);
    expect(admin.stderr).toContain(`mv "${legacy}" "${legacy}.old"`);
    await rm(dataDir, { recursive: true, force: true });
  });
});
