import { isSecureUrl } from "@/schemas/web-url";

/**
 * Sends the browser to a provider's authorization URL, only when it passes the URL rule (https,
 * http for localhost): a `javascript:` or `data:` URL would run in Hangar's origin. Returns
 * whether it navigated.
 */
export function goToProvider(
  url: string,
  assign: (url: string) => void = (target) => window.location.assign(target),
): boolean {
  if (!isSecureUrl(url)) return false;
  assign(url);
  return true;
}
