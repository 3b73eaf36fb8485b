import { beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, TEXT_LIMITS } from "../../src/schemas/limits";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { signInAs } from "../helpers/sign-in";

// Issue 11, finding 8: each input that answered 500 (or was accepted whole) is the contract's 4xx.

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const deployment = (overrides: {
  source_config?: Record<string, unknown>;
  source_revision_config?: Record<string, unknown>;
  secrets?: unknown;
}) => ({
  name: `bad-input-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`,
  source: "internal_container",
  source_config: overrides.source_config ?? {},
  source_revision_config: overrides.source_revision_config ?? { image_uri: "registry.example/a:1" },
  ...(overrides.secrets ? { secrets: overrides.secrets } : {}),
});
const create = (rawBody: string) =>
  api("/v2/deployments", {
    key: tenant.keys.editor,
    method: "POST",
    rawBody,
    headers: { "content-type": "application/json" },
  });

describe("bad input answers 4xx, never 500", () => {
  it("JSON nested 3,000 levels deep is a 422 (was a stack overflow)", async () => {
    const deep = "[".repeat(3000) + "]".repeat(3000);
    for (const path of ["/v2/deployments", "/v2/tag-keys", "/v2/auth/providers"]) {
      const res = await api(path, {
        key: tenant.keys.admin,
        method: "POST",
        rawBody: `{"name": ${deep}}`,
        headers: { "content-type": "application/json" },
      });
      expect(res.status, `${path} ${res.text.slice(0, 200)}`).toBe(422);
      expect(res.body.detail[0].type).toBe("too_deep");
      expect(res.body.detail[0].msg).toContain(String(MAX_JSON_DEPTH));
    }
  });

  it("a lone UTF-16 surrogate in a stored value is a 422 (PostgreSQL refused it)", async () => {
    const body = JSON.stringify(deployment({ source_config: { install_command: "x" } })).replace(
      '"install_command":"x"',
      '"install_command":"echo \\ud800"',
    );
    const res = await create(body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ["body", "source_config", "install_command"],
      type: "string_unicode",
    });
  });

  it("a secret name of 2,800 characters is a 422 (the index refused it)", async () => {
    const res = await create(
      JSON.stringify(deployment({ secrets: [{ name: "S".repeat(2800), value: "v" }] })),
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "secrets", 0, "name"]);
  });

  it.each([
    ["image_uri", { source_revision_config: { image_uri: "r/" + "a".repeat(900_000) } }],
    ["custom_url", { source_config: { custom_url: "https://x.example/" + "a".repeat(900_000) } }],
    ["install_command", { source_config: { install_command: "a".repeat(900_000) } }],
  ])("a %s near 1 MB is a 422, not copied into revisions", async (field, overrides) => {
    const res = await create(JSON.stringify(deployment(overrides)));
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.body.detail[0].loc.at(-1)).toBe(field);
    expect(res.text.length).toBeLessThan(2000);
  });

  it("a huge template_id is a 422 that does not echo it", async () => {
    const res = await create(
      JSON.stringify({
        name: "tpl-huge",
        source: "internal_template",
        source_config: { template_id: "t".repeat(900_000) },
        source_revision_config: {},
      }),
    );
    expect(res.status).toBe(422);
    expect(res.text.length).toBeLessThan(2000);
    expect(TEXT_LIMITS.identifier).toBeLessThan(1000);
  });

  it("an unparseable Origin on a cookie-authenticated mutation is a 403", async () => {
    const cookie = await signInAs(tenant.userIds.editor);
    for (const origin of ["http://[not-a-url", "null", "::::"]) {
      const res = await api("/v2/tag-keys", {
        method: "POST",
        body: { key: "from-a-cookie" },
        headers: { cookie, origin },
      });
      expect(res.status, `${origin}: ${res.text}`).toBe(403);
    }
  });
});
