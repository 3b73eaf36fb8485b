import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { decrypt, encrypt } from "@/server/crypto";

// One installation, many instances: what every instance must share lives once in the database
// (table installation_secrets), encrypted with the encryption key. The encryption key itself
// never is: the database holds a check value (an AES-256-GCM encryption of a known constant)
// that only the installation's key decrypts, so an instance with another key is refused.

const CHECK = "encryption_key_check";
const CHECK_PLAINTEXT = "hangar installation encryption key check v1";

/** The rows besides the check, and the data-folder file each adopts on its first start. */
export const INSTALLATION_SECRETS = {
  auth_secret: "auth.secret",
  registry_signing_pem: "registry-signing.pem",
} as const;
export type InstallationSecretName = keyof typeof INSTALLATION_SECRETS;

/** The encryption key cannot read what the installation stored: this instance must not run. */
export class EncryptionKeyMismatchError extends Error {
  constructor(keySource: string) {
    super(
      "Hangar refuses to start: this instance's encryption key is not the one this database was " +
        `first started with (this instance's key comes from ${keySource}). Every instance of one ` +
        "installation needs the same key: set HANGAR_ENCRYPTION_KEY to the key of the first " +
        "instance, or copy that instance's <HANGAR_DATA_DIR>/encryption.key (default " +
        ".data/encryption.key) into this instance's data folder (README, Running more than one " +
        "instance).",
    );
    this.name = "EncryptionKeyMismatchError";
  }
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The stored (encrypted) value of `name`; the first writer's when several race. */
async function storedOnce(client: pg.Client, name: string, make: () => Promise<string>) {
  const read = async () =>
    (
      await client.query<{ value: string }>(
        `SELECT value FROM installation_secrets WHERE name = $1`,
        [name],
      )
    ).rows[0]?.value;
  const existing = await read();
  if (existing !== undefined) return existing;
  await client.query(
    `INSERT INTO installation_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
    [name, encrypt(await make())],
  );
  const stored = await read();
  if (stored === undefined) throw new Error(`installation secret ${name} vanished while stored`);
  return stored;
}

function decrypted(stored: string, keySource: string): string {
  try {
    return decrypt(stored);
  } catch {
    throw new EncryptionKeyMismatchError(keySource);
  }
}

/** Records the key's check value at the first start; throws EncryptionKeyMismatchError after. */
export async function checkEncryptionKey(databaseUrl: string, keySource: string): Promise<void> {
  const stored = await withClient(databaseUrl, (client) =>
    storedOnce(client, CHECK, async () => CHECK_PLAINTEXT),
  );
  if (decrypted(stored, keySource) !== CHECK_PLAINTEXT)
    throw new EncryptionKeyMismatchError(keySource);
}

/** A data folder's file of the time before installation secrets, when there is one. */
async function localFile(dataDir: string, name: InstallationSecretName) {
  // The data folder is the operator's, never part of the build's traced files.
  const file = path.join(/*turbopackIgnore: true*/ dataDir, INSTALLATION_SECRETS[name]);
  return existsSync(/*turbopackIgnore: true*/ file)
    ? readFile(/*turbopackIgnore: true*/ file, "utf8")
    : undefined;
}

/**
 * The installation's `name`: stored once, by the first instance that needs it, from its data
 * folder's file of earlier versions (an upgraded install keeps its secret) or else `generate`.
 */
export async function installationSecret(
  databaseUrl: string,
  name: InstallationSecretName,
  options: { dataDir: string; generate: () => Promise<string>; keySource?: string },
): Promise<string> {
  const stored = await withClient(databaseUrl, (client) =>
    storedOnce(
      client,
      name,
      async () => (await localFile(options.dataDir, name)) ?? (await options.generate()),
    ),
  );
  return decrypted(stored, options.keySource ?? "HANGAR_ENCRYPTION_KEY");
}

/**
 * At `npm start`, before the web server and worker start: checks the encryption key, adopts the
 * data folder's files of earlier versions, and sets AUTH_SECRET (unless given) to the
 * installation's session secret.
 */
export async function ensureInstallationSecrets(
  databaseUrl: string,
  dataDir: string,
  keySource: string,
): Promise<void> {
  await checkEncryptionKey(databaseUrl, keySource);
  const options = { dataDir, keySource };
  process.env.AUTH_SECRET ||= (
    await installationSecret(databaseUrl, "auth_secret", {
      ...options,
      generate: async () => randomBytes(32).toString("hex"),
    })
  ).trim();
  // The registry signing key is generated where it is first used (src/server/registry), but an
  // upgraded install's file is adopted now, before any instance could generate another.
  if (await localFile(dataDir, "registry_signing_pem"))
    await installationSecret(databaseUrl, "registry_signing_pem", {
      ...options,
      generate: () => Promise.reject(new Error("unreachable: the file exists")),
    });
}
