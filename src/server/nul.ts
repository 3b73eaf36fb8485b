import { AppError } from "@/server/errors";

/** The path to the first text (value or object key) holding U+0000, which PostgreSQL cannot store. */
export function findNul(
  value: unknown,
  path: (string | number)[] = [],
): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, [...path, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key];
      const found = findNul(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses (422) any input text holding U+0000, at both doors, before a schema or the database sees it. */
export function refuseNul(where: "body" | "query" | "path" | "header", value: unknown): void {
  const path = findNul(value);
  if (path) {
    const msg = "Text cannot contain the NUL character (\\u0000)";
    throw new AppError("validation", msg, [{ loc: [where, ...path], msg, type: "string_nul" }]);
  }
}
