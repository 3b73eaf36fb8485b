import { AppError } from "@/server/errors";

export type OutboundFailure = "refused" | "timeout" | "unreachable" | "too_large" | "redirect";

/** A request to a user-supplied URL that did not get an answer Hangar can use. */
export class OutboundError extends Error {
  readonly kind: OutboundFailure;

  constructor(kind: OutboundFailure, message: string) {
    super(message);
    this.name = "OutboundError";
    this.kind = kind;
  }
}

/** The OutboundError behind a failed fetch (undici wraps connect errors in `cause`), if any. */
export function findOutboundError(error: unknown): OutboundError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as Error).cause, depth++) {
    if (e instanceof OutboundError) return e;
  }
  return null;
}

/** A 502 that says which step failed and why (the policy, a timeout, ...); other errors pass. */
export function outboundToAppError(error: unknown, step: string): unknown {
  const outbound = findOutboundError(error);
  return outbound ? new AppError("bad_gateway", `${step}: ${outbound.message}`) : error;
}
