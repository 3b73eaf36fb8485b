import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Keys that must survive restarts (the encryption key, next-auth's secret): when not given in
 * the environment, generated once into the data folder, readable by its owner only.
 */
export async function localSecret(dataDir: string, file: string): Promise<string> {
  const target = path.join(dataDir, file);
  if (existsSync(target)) return (await readFile(target, "utf8")).trim();
  await mkdir(dataDir, { recursive: true });
  const value = randomBytes(32).toString("hex");
  await writeFile(target, value + "\n", { mode: 0o600, flag: "wx" });
  await chmod(target, 0o600);
  return value;
}

/** Fills HANGAR_ENCRYPTION_KEY and AUTH_SECRET from the data folder where they are unset. */
export async function ensureLocalSecrets(dataDir: string): Promise<void> {
  process.env.HANGAR_ENCRYPTION_KEY ||= await localSecret(dataDir, "encryption.key");
  process.env.AUTH_SECRET ||= await localSecret(dataDir, "auth.secret");
}
