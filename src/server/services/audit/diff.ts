/** One changed leaf of a settings object, as the audit log shows it. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

const MAX_CHANGES = 50;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The leaves that differ between two JSON values, keyed by dotted path ("resource_spec.cpu");
 * arrays compare whole. Callers pass no secret values (secrets are named, never diffed).
 */
export function diffJson(before: unknown, after: unknown, path = ""): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  const walk = (a: unknown, b: unknown, at: string) => {
    if (Object.keys(out).length >= MAX_CHANGES) return;
    if (isObject(a) && isObject(b)) {
      for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
        walk(a[key], b[key], at ? `${at}.${key}` : key);
      return;
    }
    if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null))
      out[at] = { from: a ?? null, to: b ?? null };
  };
  walk(before, after, path);
  return out;
}
