import { chromium, type Browser } from "@playwright/test";
import { chromiumLaunchOptions, ensureChromium } from "../../testing/chromium";

// A real browser for the user's side of an authorization flow: sign in and consent at the
// provider (oidc-provider's development pages), then follow its redirect back to Hangar.

export function launchBrowser(): Promise<Browser> {
  ensureChromium(); // `npm test` installs it first; a lone vitest run may not have
  return chromium.launch(chromiumLaunchOptions);
}

async function consent(browser: Browser, url: string, login: string, intercept: boolean) {
  const context = await browser.newContext();
  const page = await context.newPage();
  let redirect: URL | null = null;
  if (intercept) {
    // A caller that handles the redirect itself: keep the code, do not let the browser deliver
    // it. The callback is the last hop of a redirect chain, which page.route does not see.
    const cdp = await context.newCDPSession(page);
    cdp.on("Fetch.requestPaused", (event) => {
      redirect = new URL(event.request.url);
      void cdp.send("Fetch.fulfillRequest", {
        requestId: event.requestId,
        responseCode: 200,
        responseHeaders: [{ name: "content-type", value: "text/html" }],
        body: Buffer.from("<main>caught</main>").toString("base64"),
      });
    });
    await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*/v2/auth/callback/*" }] });
  }
  try {
    await page.goto(url);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any-password");
    await page.locator('button[type="submit"]').click();
    await page.locator("button", { hasText: "Continue" }).click();
    await page.waitForURL(intercept ? /\/v2\/auth\/callback\// : /\/auth\/complete/);
    return {
      url: new URL(page.url()),
      redirect: redirect as URL | null,
      text: (await page.locator("main").innerText()).trim(),
    };
  } finally {
    await context.close();
  }
}

/** Walks the provider's pages; resolves with Hangar's result page (its URL and what it says). */
export const signInAndConsent = (browser: Browser, url: string, login = "alice") =>
  consent(browser, url, login, false);

/** The same, but stops at the provider's redirect to Hangar and returns its code and state. */
export async function signInAndCatchRedirect(browser: Browser, url: string, login = "alice") {
  const { redirect } = await consent(browser, url, login, true);
  if (!redirect) throw new Error("the provider did not redirect back");
  return { code: redirect.searchParams.get("code")!, state: redirect.searchParams.get("state")! };
}
