import type { z } from "zod";
import { AppError, type ValidationIssue } from "@/server/errors";
import { refuseBadText } from "@/server/input-text";

type Location = "body" | "query" | "path" | "header";

/** Maps zod issues to FastAPI's `detail` entries: `loc` starts with where the value came from. */
export function toValidationIssues(where: Location, error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: issue.message,
    type: issueType(issue),
  }));
}

function issueType(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "missing" : `${issue.expected}_type`;
    case "too_small":
      return issue.origin === "string"
        ? "string_too_short"
        : issue.origin === "array"
          ? "too_short"
          : "greater_than_equal";
    case "too_big":
      return issue.origin === "string"
        ? "string_too_long"
        : issue.origin === "array"
          ? "too_long"
          : "less_than_equal";
    case "invalid_format":
      return issue.format === "regex" ? "string_pattern_mismatch" : `${issue.format}_parsing`;
    case "invalid_value":
      return "enum";
    case "unrecognized_keys":
      return "extra_forbidden";
    default:
      return "value_error";
  }
}

export function parseOrThrow<T extends z.ZodType>(
  where: Location,
  schema: T,
  value: unknown,
): z.output<T> {
  refuseBadText(where, value);
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError(
      "validation",
      "Request validation failed",
      toValidationIssues(where, result.error),
    );
  }
  return result.data;
}

/** A JSON request body, or the contract's 422 `json_invalid` entry. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("validation", "Malformed JSON", [
      {
        loc: ["body", 0],
        msg: `JSON decode error: ${(error as Error).message}`,
        type: "json_invalid",
      },
    ]);
  }
}
