import { z } from "zod";
import { SECRET_PLACEHOLDER, secretsInput, type Deployment } from "@/schemas/deployments";
import type { DotenvEntry } from "@/lib/dotenv";

/** One editor row: `keep` sends the placeholder so the stored value stays; `stored` rows keep their name. */
export interface SecretRow {
  name: string;
  value: string;
  keep: boolean;
  stored: boolean;
}
export interface SecretsValues {
  secrets: SecretRow[];
}

/** The API's own rules (name pattern, duplicates, 64 KiB); a kept row's empty value passes. */
export const secretsFormSchema = z.object({ secrets: secretsInput });

export const rowsOf = (d: Deployment): SecretRow[] =>
  d.secrets.map((s) => ({ name: s.name, value: "", keep: true, stored: true }));

export const toSecretsPayload = (rows: SecretRow[]) =>
  rows.map((r) => ({ name: r.name, value: r.keep ? SECRET_PLACEHOLDER : r.value }));

/** Pasted entries replace the values of rows with the same name and add the rest. */
export function mergePasted(rows: SecretRow[], entries: DotenvEntry[]): SecretRow[] {
  const merged = rows.map((r) => ({ ...r }));
  for (const { name, value } of entries) {
    const row = merged.find((r) => r.name === name);
    if (row) Object.assign(row, { value, keep: false });
    else merged.push({ name, value, keep: false, stored: false });
  }
  return merged;
}
