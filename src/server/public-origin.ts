import { env } from "@/env";

/** Said where a URL must be handed out but no request says where Hangar is (server-side calls). */
export const NO_ORIGIN = "Hangar's public address is unknown here: set HANGAR_PUBLIC_URL.";

/**
 * The origin clients reach Hangar at, for every URL it hands out (upload URLs, OAuth redirect
 * URIs): HANGAR_PUBLIC_URL when set, else the request's scheme and host. X-Forwarded-Proto and
 * -Host are read here only as the server left them (forwarded-headers.ts): a client's own
 * values never arrive without trusted proxies, and Next fills them from the socket and Host.
 */
export function publicOrigin(req: Request): string {
  if (env.HANGAR_PUBLIC_URL) return env.HANGAR_PUBLIC_URL.replace(/\/+$/, "");
  const url = new URL(req.url);
  const proto = req.headers.get("x-forwarded-proto");
  const scheme = proto === "http" || proto === "https" ? proto : url.protocol.replace(/:$/, "");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return url.origin;
  }
}
