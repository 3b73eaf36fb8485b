import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Keys that must survive restarts (the encryption key, the embedded database's password): when
 * not given in the environment, generated once into the data folder, readable by its owner only.
 * What every instance shares beyond the encryption key (the session secret, the registry signing
 * key) lives in the database instead (src/server/installation/secrets.ts).
 */
export async function localSecret(dataDir: string, file: string): Promise<string> {
  const target = path.join(dataDir, file);
  if (!existsSync(target)) {
    await mkdir(dataDir, { recursive: true });
    try {
      await writeFile(target, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
      await chmod(target, 0o600);
    } catch (error) {
      // Two processes starting at once: the other one wrote it first.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return (await readFile(target, "utf8")).trim();
}

/**
 * Fills HANGAR_ENCRYPTION_KEY from the data folder when it is unset; answers where the key came
 * from (for the message of an instance whose key is not the installation's).
 */
export async function ensureLocalSecrets(dataDir: string): Promise<string> {
  if (process.env.HANGAR_ENCRYPTION_KEY) return "HANGAR_ENCRYPTION_KEY";
  process.env.HANGAR_ENCRYPTION_KEY = await localSecret(dataDir, "encryption.key");
  return path.join(dataDir, "encryption.key");
}

/** The generated first admin password, kept beside the other local secrets (owner-only). */
export async function keepAdminPassword(dataDir: string, password: string): Promise<string> {
  const target = path.resolve(dataDir, "admin.password");
  await mkdir(dataDir, { recursive: true });
  await writeFile(target, password + "\n", { mode: 0o600 });
  await chmod(target, 0o600);
  return target;
}
