import { env } from "@/env";

/**
 * The tracing base Hangar advertises: HANGAR_TRACING_ENDPOINT, else the public URL's /api/v1.
 * Deployed pods send runs to it (contract 15.7); attachment URLs point at it.
 */
export function tracingEndpoint(
  config: Pick<typeof env, "HANGAR_TRACING_ENDPOINT" | "HANGAR_PUBLIC_URL"> = env,
): string | null {
  const trim = (url: string) => url.replace(/\/+$/, "");
  if (config.HANGAR_TRACING_ENDPOINT) return trim(config.HANGAR_TRACING_ENDPOINT);
  return config.HANGAR_PUBLIC_URL ? `${trim(config.HANGAR_PUBLIC_URL)}/api/v1` : null;
}
