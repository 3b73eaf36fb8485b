import { AppError } from "@/server/errors";

/** The target of the link whose rel list holds `next` (RFC 8288: `<url>; rel="next", ...`). */
function nextTarget(link: string): string | undefined {
  for (const match of link.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(match[2] ?? "")?.[1] ?? "";
    if (rel.toLowerCase().split(/\s+/).includes("next")) return match[1];
  }
  return undefined;
}

/**
 * The `rel="next"` URL of a Link header, or null on the last page. A next link to another
 * origin than the integration's base URL is refused: the token would go with it.
 */
export function nextPageUrl(link: string | undefined, baseUrl: string): string | null {
  const next = link ? nextTarget(link) : undefined;
  if (!next) return null;
  let target: URL;
  try {
    target = new URL(next, baseUrl);
  } catch {
    throw new AppError("bad_gateway", "The code host answered a next-page link that is not a URL.");
  }
  if (target.origin !== new URL(baseUrl).origin)
    throw new AppError(
      "bad_gateway",
      `The code host's next-page link points to another origin (${target.origin}); Hangar does not send the integration's credentials there.`,
    );
  return target.href;
}
