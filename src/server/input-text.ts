import { MAX_JSON_DEPTH } from "@/schemas/limits";
import { AppError } from "@/server/errors";

type Loc = (string | number)[];
type Problem = { loc: Loc; msg: string; type: string };

/**
 * The first piece of input text PostgreSQL or our parsers cannot take: U+0000 (PostgreSQL cannot
 * store it), a lone UTF-16 surrogate (not valid Unicode: JSONB refuses it), or nesting deeper
 * than MAX_JSON_DEPTH. Iterative, so no input can exhaust the stack.
 */
export function findBadText(value: unknown): Problem | null {
  // Nearly all input is clean: checked first without building a location per value (the walk
  // below allocates one for every child, which showed in run ingest's profile as garbage).
  return hasBadText(value) ? locateBadText(value) : null;
}

/** Whether any string, key or nesting depth in the value is refused (no locations built). */
function hasBadText(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const item = values.pop();
    const depth = depths.pop()!;
    if (typeof item === "string") {
      if (isBadText(item)) return true;
      continue;
    }
    if (!item || typeof item !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return true;
    if (Array.isArray(item)) {
      for (const child of item) {
        values.push(child);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key of Object.keys(item)) {
      if (isBadText(key)) return true;
      values.push((item as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** The first refused piece with its location, in the order the fast check reads them. */
function locateBadText(value: unknown): Problem | null {
  const stack: { value: unknown; loc: Loc; depth: number }[] = [{ value, loc: [], depth: 0 }];
  while (stack.length) {
    const { value: item, loc, depth } = stack.pop()!;
    if (typeof item === "string") {
      const problem = textProblem(item, loc);
      if (problem) return problem;
      continue;
    }
    if (!item || typeof item !== "object") continue;
    if (depth >= MAX_JSON_DEPTH)
      return {
        loc,
        msg: `Input is nested deeper than ${MAX_JSON_DEPTH} levels`,
        type: "too_deep",
      };
    const entries: [string | number, unknown][] = Array.isArray(item)
      ? item.map((v, i) => [i, v])
      : Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (typeof key === "string") {
        const problem = textProblem(key, [...loc, key]);
        if (problem) return problem;
      }
      stack.push({ value: child, loc: [...loc, key], depth: depth + 1 });
    }
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What textProblem refuses, asked natively (isWellFormed: no lone surrogate). */
const isBadText = (text: string) => text.includes("\u0000") || !text.isWellFormed();

function textProblem(text: string, loc: Loc): Problem | null {
  if (text.includes("\u0000"))
    return { loc, msg: "Text cannot contain the NUL character (\\u0000)", type: "string_nul" };
  if (LONE_SURROGATE.test(text))
    return {
      loc,
      msg: "Text must be valid Unicode (it holds a lone UTF-16 surrogate)",
      type: "string_unicode",
    };
  return null;
}

/** Refuses (422) such input at both doors, before a schema or the database sees it. */
export function refuseBadText(where: "body" | "query" | "path" | "header", value: unknown): void {
  const problem = findBadText(value);
  if (problem) {
    const issue = { ...problem, loc: [where, ...problem.loc] };
    throw new AppError("validation", problem.msg, [issue]);
  }
}
