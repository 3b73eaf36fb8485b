import { describe, expect, it } from "vitest";
import { isHttpUrl, isSecureUrl } from "../../src/schemas/urls";

describe("isSecureUrl (OAuth endpoints)", () => {
  it.each([
    "https://login.example.com/oauth2/authorize",
    "https://example.com:8443/token?tenant=a",
    "http://localhost:8080/callback",
    "http://127.0.0.1/token",
    "http://[::1]:9000/token",
  ])("accepts %s", (url) => expect(isSecureUrl(url)).toBe(true));

  it.each([
    "http://example.com/token",
    "http://localhost.evil.com/token",
    "http://127.0.0.2/token",
    "ftp://example.com/token",
    "https:example.com/token",
    "//example.com/token",
    "/oauth/token",
    "https://user:pass@example.com/token",
    "https://",
    "not a url",
    "",
  ])("refuses %s", (url) => expect(isSecureUrl(url)).toBe(false));
});

describe("isHttpUrl (code-host API base)", () => {
  it("accepts http and https, refuses other schemes and credentials", () => {
    expect(isHttpUrl("http://codehost.internal/api/v3")).toBe(true);
    expect(isHttpUrl("https://api.codehost.example")).toBe(true);
    expect(isHttpUrl("ssh://codehost.example")).toBe(false);
    expect(isHttpUrl("http://token@codehost.example")).toBe(false);
  });
});
