import { z } from "zod";

// URL rules shared by the OAuth provider and code-host integration schemas.

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function parseAbsolute(value: string): URL | null {
  // WHATWG parsing accepts "https:host" as absolute; the contract wants the full "scheme://" form.
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.hostname && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

/** An absolute https URL, or http for a loopback host (local development). */
export function isSecureUrl(value: string): boolean {
  const url = parseAbsolute(value);
  if (!url) return false;
  return url.protocol === "https:" || LOOPBACK_HOSTS.has(url.hostname);
}

/** An absolute http or https URL without credentials. */
export function isHttpUrl(value: string): boolean {
  return parseAbsolute(value) !== null;
}

export const secureUrl = z
  .string()
  .max(2048)
  .refine(isSecureUrl, "Must be an absolute https URL (http is allowed only for localhost)")
  .meta({ format: "uri" });

export const httpUrl = z
  .string()
  .max(2048)
  .refine(isHttpUrl, "Must be an absolute http or https URL without credentials")
  .meta({ format: "uri" });
