import { describe, expect, it } from "vitest";
import { goToProvider } from "../../src/components/agent-auth/provider-redirect";

// "Connect account" sends the browser to the URL the server answered: only an https one (http for
// localhost), so a javascript: or data: URL stored before the URL rule never runs in Hangar's origin.

function navigations(url: string) {
  const seen: string[] = [];
  return { went: goToProvider(url, (target) => seen.push(target)), seen };
}

describe("goToProvider", () => {
  it.each([
    "https://login.example.com/authorize?client_id=a&state=b",
    "http://localhost:9000/auth?state=b",
  ])("navigates to %s", (url) => {
    expect(navigations(url)).toEqual({ went: true, seen: [url] });
  });

  it.each([
    "javascript:alert(document.domain)//",
    "data:text/html,<script>alert(document.domain)</script>",
    " JavaScript:alert(document.domain)//",
    "java\tscript:alert(document.domain)//",
    "JAVASCRIPT:alert(1)",
    "vbscript:msgbox(1)",
    "//evil.example/authorize",
    "http://login.example.com/authorize",
  ])("does not navigate to %j", (url) => {
    expect(navigations(url)).toEqual({ went: false, seen: [] });
  });
});
