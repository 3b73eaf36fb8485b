import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkEncryptionKey,
  EncryptionKeyMismatchError,
  installationSecret,
} from "../../src/server/installation/secrets";
import { createTestDatabase } from "../../testing/database";

// The installation's shared secrets on a fresh database of their own (issue 27, goal 5): many
// instances starting at once agree on one value, the stored form is encrypted, an upgraded data
// folder's file is adopted, and a key other than the installation's is refused. The launcher test
// (tests/launcher/many-instances.test.ts) runs the same through `npm start` twice.

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase("hangar_installation");
  dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-installation-"));
});
afterAll(async () => {
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const stored = async (name: string) => {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(`SELECT value FROM installation_secrets WHERE name = $1`, [name]))
      .rows[0]?.value as string | undefined;
  } finally {
    await client.end();
  }
};

describe("installation secrets", () => {
  it("ten instances racing for the first start agree on the check and on one session secret", async () => {
    await Promise.all(Array.from({ length: 10 }, () => checkEncryptionKey(database.url, "test")));
    const values = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        installationSecret(database.url, "auth_secret", {
          dataDir: path.join(dataDir, `instance-${i}`),
          generate: async () => `secret-of-instance-${i}`,
        }),
      ),
    );
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^secret-of-instance-\d$/);
    // Encrypted at rest: the value is not in the row, nor is the check's text.
    expect(await stored("auth_secret")).toMatch(/^v1\./);
    expect(await stored("auth_secret")).not.toContain(values[0]);
    expect(await stored("encryption_key_check")).toMatch(/^v1\./);
  });

  it("adopts an upgraded data folder's file as the installation's value", async () => {
    const pem = `-----BEGIN PRIVATE KEY-----\n${randomBytes(8).toString("hex")}\n-----END PRIVATE KEY-----\n`;
    await writeFile(path.join(dataDir, "registry-signing.pem"), pem);
    const generate = async () => "generated";
    const adopted = await installationSecret(database.url, "registry_signing_pem", {
      dataDir,
      generate,
    });
    expect(adopted).toBe(pem);
    // Later starts read it back, whatever their own folder holds.
    expect(
      await installationSecret(database.url, "registry_signing_pem", {
        dataDir: path.join(dataDir, "elsewhere"),
        generate,
      }),
    ).toBe(pem);
  });

  it("refuses another key with a message naming which key to set", async () => {
    // The same rows, read with another key: a process of its own, as another instance would be.
    const { spawnSync } = await import("node:child_process");
    const script = `
      const { checkEncryptionKey } = await import("./src/server/installation/secrets.ts");
      try { await checkEncryptionKey(process.env.DATABASE_URL, "/other/.data/encryption.key"); console.log("accepted"); }
      catch (error) { console.log(error.name + ": " + error.message); }`;
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          HANGAR_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        },
        encoding: "utf8",
      },
    );
    expect(result.stdout).toContain(new EncryptionKeyMismatchError("x").name);
    expect(result.stdout).toContain("this instance's key comes from /other/.data/encryption.key");
    expect(result.stdout).toContain("set HANGAR_ENCRYPTION_KEY to the key of the first instance");
    expect(result.stdout).not.toContain("accepted");
  });

  it("a worker (npm run worker) with another key refuses to start", async () => {
    const { spawnSync } = await import("node:child_process");
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        HANGAR_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "this instance's encryption key is not the one this database was first started with " +
        "(this instance's key comes from HANGAR_ENCRYPTION_KEY)",
    );
    expect(result.stdout).not.toContain('"worker started"');
  });
});
