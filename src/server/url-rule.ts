import { isSecureUrl } from "@/schemas/web-url";
import { AppError } from "./errors";

// The URL rule (src/schemas/urls.ts) where no request schema stands guard: URLs read from a
// provider's documents, and stored URLs about to be handed to a browser (rows saved before it).

/**
 * `value` when it is an absolute https URL (http only for loopback hosts), else a 502 naming
 * `what` (the provider's document or configuration is unusable; the URL itself is not echoed).
 */
export function requireSecureUrl(value: unknown, what: string, fix?: string): string {
  if (typeof value === "string" && isSecureUrl(value)) return value;
  throw new AppError(
    "bad_gateway",
    `${what} is not an absolute https URL (http only for localhost)${fix ? `: ${fix}` : ""}.`,
  );
}
