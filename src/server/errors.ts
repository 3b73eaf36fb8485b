import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/** One row per error the domain can raise: its HTTP status and its tRPC code. */
export const errorTable = {
  validation: { http: 422, trpc: "UNPROCESSABLE_CONTENT" },
  bad_request: { http: 400, trpc: "BAD_REQUEST" },
  unauthorized: { http: 401, trpc: "UNAUTHORIZED" },
  forbidden: { http: 403, trpc: "FORBIDDEN" },
  not_found: { http: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { http: 405, trpc: "METHOD_NOT_SUPPORTED" },
  conflict: { http: 409, trpc: "CONFLICT" },
  precondition_failed: { http: 412, trpc: "PRECONDITION_FAILED" },
  payload_too_large: { http: 413, trpc: "PAYLOAD_TOO_LARGE" },
  unsupported_media_type: { http: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  rate_limited: { http: 429, trpc: "TOO_MANY_REQUESTS" },
  internal: { http: 500, trpc: "INTERNAL_SERVER_ERROR" },
  bad_gateway: { http: 502, trpc: "BAD_GATEWAY" },
  unavailable: { http: 503, trpc: "SERVICE_UNAVAILABLE" },
} as const satisfies Record<string, { http: number; trpc: TRPC_ERROR_CODE_KEY }>;

export type ErrorCode = keyof typeof errorTable;

/** One entry of a FastAPI-style 422 body. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: ValidationIssue[];

  constructor(code: ErrorCode, message: string, issues?: ValidationIssue[]) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.issues = issues;
  }

  get status(): number {
    return errorTable[this.code].http;
  }
}

export const notFound = (message: string) => new AppError("not_found", message);
export const badRequest = (message: string) => new AppError("bad_request", message);
export const conflict = (message: string) => new AppError("conflict", message);
export const forbidden = (message: string) => new AppError("forbidden", message);

/** A 422 for one field, in the FastAPI shape, for rules zod cannot see (e.g. cross-field). */
export function invalidField(
  loc: (string | number)[],
  msg: string,
  type = "value_error",
): AppError {
  return new AppError("validation", msg, [{ loc, msg, type }]);
}

/** Postgres/Prisma failures that mean "the database is not there" become 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const text =
    String((error as { code?: string })?.code ?? "") +
    " " +
    String((error as Error)?.message ?? "");
  return /ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|ETIMEDOUT|57P01|57P02|57P03|53300|Can't reach database|Connection terminated|DatabaseNotReachable|P1001|P1017|not currently accepting connections|unexpected postmaster exit/.test(
    text,
  );
}

/** Prisma's unique-constraint violation (P2002), for services that turn it into a 409. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "P2002";
}
