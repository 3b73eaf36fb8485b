import { describe, expect, it } from "vitest";
import { ingressHost, isHttpUrl, isSecureUrl } from "../../src/schemas/web-url";

/** Schemes that run script or read files, also disguised by case, whitespace or control characters. */
const TRICKS = [
  "javascript:alert(document.domain)//",
  "JAVASCRIPT:alert(1)",
  "JavaScript:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "\u0000javascript:alert(1)",
  "javascript\u0000:alert(1)",
  "data:text/html,<script>alert(document.domain)</script>",
  " DATA:text/html;base64,PHNjcmlwdD4=",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "//evil.example/x",
  "https:\\\\evil.example/x",
  "https:evil.example/x",
  "https://user:pass@example.com/token",
  "https://user@example.com/token",
  // Whitespace the URL parser drops or trims: the text would not be the URL a browser reads.
  " https://example.com/token",
  "https://example.com/token ",
  "https://\texample.com/token",
  "https://example.com/\ntoken",
  "https://example.com/\u00a0token",
];

describe("isSecureUrl (OAuth endpoints, discovery documents, the authorization URL handed out)", () => {
  it.each([
    "https://login.example.com/oauth2/authorize",
    "https://example.com:8443/token?tenant=a",
    "HTTPS://Login.Example.com/authorize",
    "http://localhost:8080/callback",
    "http://127.0.0.1/token",
    "http://[::1]:9000/token",
  ])("accepts %s", (url) => expect(isSecureUrl(url)).toBe(true));

  it.each([
    ...TRICKS,
    "http://example.com/token",
    "http://localhost.evil.com/token",
    "http://127.0.0.2/token",
    "ftp://example.com/token",
    "/oauth/token",
    "https://",
    "not a url",
    "",
  ])("refuses %j", (url) => expect(isSecureUrl(url)).toBe(false));

  it("refuses what is not text", () => {
    for (const value of [null, undefined, 42, ["https://example.com"], { href: "https://x.y" }])
      expect(isSecureUrl(value)).toBe(false);
  });
});

describe("isHttpUrl (code-host API base, links shown in the dashboard)", () => {
  it("accepts http and https, refuses other schemes, credentials and tricks", () => {
    expect(isHttpUrl("http://codehost.internal/api/v3")).toBe(true);
    expect(isHttpUrl("https://api.codehost.example")).toBe(true);
    expect(isHttpUrl("ssh://codehost.example")).toBe(false);
    expect(isHttpUrl("http://token@codehost.example")).toBe(false);
    for (const url of TRICKS) expect(isHttpUrl(url), JSON.stringify(url)).toBe(false);
  });
});

describe("ingressHost (custom_url: the deployment's URL and its Ingress host)", () => {
  it.each([
    ["http://agent.localhost", "agent.localhost"],
    ["https://Agent.Example.com:8443/path?q=1", "agent.example.com"],
    ["https://bücher.example", "xn--bcher-kva.example"],
  ])("%s -> %s", (url, host) => expect(ingressHost(url)).toBe(host));

  it.each([
    ...TRICKS,
    "javascript://agent.example.com/%0aalert(1)",
    "http://10.0.0.1/",
    "http://0x7f.1/",
    "http://[::1]/",
    "http://*.example.com/",
    "http://-bad.example.com/",
    "http://example.com./",
    `http://${"a".repeat(64)}.example.com/`,
  ])("refuses %j", (url) => expect(ingressHost(url)).toBeNull());
});
