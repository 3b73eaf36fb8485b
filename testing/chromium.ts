import { ensureDebianPackages } from "./debian";

// Debian's Chromium, which the browser tests (Playwright, the authorization-flow tests) and the
// dashboard benchmark drive: one path, one set of flags, installed when missing.

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Playwright's launch options for it. */
export const chromiumLaunchOptions = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

export function ensureChromium(): void {
  ensureDebianPackages([{ command: CHROMIUM_PATH, debianPackage: "chromium" }]);
}
