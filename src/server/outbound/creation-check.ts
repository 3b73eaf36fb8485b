import { env } from "@/env";
import { invalidField } from "@/server/errors";
import { isIpLiteral, refusedRange } from "./address-policy";
import { parseAllowlist } from "./allowlist";

/**
 * At creation: a URL whose host is a literal address in a refused range is a 422 on `loc`
 * (names are checked again at call time, when they are resolved).
 */
export function refuseLiteralAddress(url: string, loc: (string | number)[]): void {
  const parsed = new URL(url);
  if (!isIpLiteral(parsed.hostname)) return;
  const range = refusedRange(parsed.hostname);
  const port = Number(parsed.port) || (parsed.protocol === "https:" ? 443 : 80);
  if (range && !parseAllowlist(env.HANGAR_EGRESS_ALLOWLIST).allows(parsed.hostname, port, null)) {
    throw invalidField(
      loc,
      `${parsed.hostname} is a ${range} address: Hangar does not send requests there unless HANGAR_EGRESS_ALLOWLIST lists it`,
      "egress_refused",
    );
  }
}
