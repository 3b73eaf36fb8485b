import { SECRET_PLACEHOLDER } from "@/schemas/deployments";
import { decrypt, encrypt } from "@/server/crypto";
import type { DbClient } from "@/server/db";

export interface StoredSecret {
  name: string;
  value_encrypted: string;
}

/**
 * The stored set after a request's list: a value equal to the placeholder keeps what was
 * stored under that name, so a response can be sent back unchanged.
 */
export function mergeSecrets(
  current: StoredSecret[],
  requested: { name: string; value: string }[],
): StoredSecret[] {
  const byName = new Map(current.map((s) => [s.name, s.value_encrypted]));
  return requested.map(({ name, value }) => {
    const kept = value === SECRET_PLACEHOLDER ? byName.get(name) : undefined;
    return { name, value_encrypted: kept ?? encrypt(value) };
  });
}

/** True when the two sets hold the same names and plaintext values. */
export function sameSecrets(a: StoredSecret[], b: StoredSecret[]): boolean {
  if (a.length !== b.length) return false;
  const plain = new Map(a.map((s) => [s.name, decrypt(s.value_encrypted)]));
  return b.every((s) => plain.has(s.name) && plain.get(s.name) === decrypt(s.value_encrypted));
}

export async function loadSecrets(db: DbClient, deploymentId: string): Promise<StoredSecret[]> {
  const rows = await db.secret.findMany({ where: { deploymentId }, orderBy: { name: "asc" } });
  return rows.map((r) => ({ name: r.name, value_encrypted: r.valueEncrypted }));
}

export async function replaceSecrets(
  db: DbClient,
  deploymentId: string,
  secrets: StoredSecret[],
): Promise<void> {
  await db.secret.deleteMany({ where: { deploymentId } });
  if (secrets.length) {
    await db.secret.createMany({
      data: secrets.map((s) => ({ deploymentId, name: s.name, valueEncrypted: s.value_encrypted })),
    });
  }
}
