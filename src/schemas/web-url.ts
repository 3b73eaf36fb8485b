// The URL rule for every URL that reaches a browser, a redirect, an outbound call or the Ingress:
// parsed by the WHATWG URL parser (as browsers do), schemes from an allow-list, the full
// "scheme://host" form, no credentials. One place: the schemas (urls.ts), the server's check of
// URLs it reads from remote documents or hands out (src/server/url-rule.ts), the dashboard's
// guard before it navigates, and the Ingress host. Plain functions without zod, so a dashboard
// page that checks a URL does not download the schema library.

const SCHEMES = new Set(["https:", "http:"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
// Parsers drop or trim these ("java\tscript:", " https:"), so the text would not be the URL read.
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/** The URL when `value` is an absolute http(s) URL without credentials, else null. */
export function parseWebUrl(value: unknown): URL | null {
  if (typeof value !== "string" || WHITESPACE_OR_CONTROL.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (!SCHEMES.has(url.protocol)) return null;
  // WHATWG parsing reads "https:host" and "https:\\host" as absolute; only "scheme://" is taken.
  if (!value.slice(url.protocol.length).startsWith("//")) return null;
  return url.hostname && !url.username && !url.password ? url : null;
}

/** An absolute https URL, or http for a loopback host (local development). */
export function isSecureUrl(value: unknown): boolean {
  const url = parseWebUrl(value);
  if (!url) return false;
  return url.protocol === "https:" || LOOPBACK_HOSTS.has(url.hostname);
}

/** An absolute http or https URL without credentials. */
export function isHttpUrl(value: unknown): boolean {
  return parseWebUrl(value) !== null;
}

// A DNS name of lowercase labels (WHATWG lowercases hosts), as a Kubernetes Ingress host needs.
const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The Ingress host of a deployment URL: an http(s) URL's DNS name (no IP address), else null. */
export function ingressHost(value: unknown): string | null {
  const host = parseWebUrl(value)?.hostname;
  // A last label of digits only is an IPv4 address to the URL parser.
  if (!host || !DNS_NAME.test(host) || /(^|\.)\d+$/.test(host)) return null;
  return host;
}
