import type { NextRequest } from "next/server";
import { env } from "@/env";

/**
 * The origin clients reach Hangar at, for URLs it hands out: HANGAR_PUBLIC_URL when set, else
 * the request's host (with X-Forwarded-Proto/-Host only behind trusted proxies).
 */
export function publicOrigin(req: NextRequest): string {
  if (env.HANGAR_PUBLIC_URL) return env.HANGAR_PUBLIC_URL.replace(/\/+$/, "");
  const trusted = env.HANGAR_TRUSTED_PROXY_HOPS > 0;
  const forwarded = (name: string) =>
    trusted ? req.headers.get(name)?.split(",")[0]?.trim() : undefined;
  const proto = forwarded("x-forwarded-proto") ?? req.nextUrl.protocol.replace(/:$/, "");
  const host = forwarded("x-forwarded-host") ?? req.headers.get("host") ?? req.nextUrl.host;
  return `${proto}://${host}`;
}
