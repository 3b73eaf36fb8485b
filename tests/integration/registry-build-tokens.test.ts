import { decodeJwt } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { issueBuildToken, revokeBuildToken } from "../../src/server/services/registry/push-tokens";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// What the token server grants a build's own push token (contract section 12): push and pull
// of its deployment's repository, pull of the workspace's other repositories (base images),
// nothing elsewhere; revoked when its build ends, and not by the client's DELETE push-token.

let tenant: Tenant;
let deployment: { id: string; name: string; revisionId: string };

beforeAll(async () => {
  tenant = await createTenant();
  const res = await api("/v2/deployments", {
    key: tenant.keys.editor,
    method: "POST",
    body: {
      name: `built-${Date.now().toString(36)}`,
      source: "internal_container",
      source_config: { deployment_type: "dev" },
      source_revision_config: { image_uri: "registry.example/agent:1" },
    },
  });
  expect(res.status, res.text).toBe(201);
  deployment = { id: res.body.id, name: res.body.name, revisionId: res.body.latest_revision_id };
});

const basic = (token: string) =>
  `Basic ${Buffer.from(`oauth2accesstoken:${token}`).toString("base64")}`;

/** The token server's grants for `scopes`, or its status when it refuses. */
async function grants(token: string, scopes: string[]) {
  const query = scopes.map((s) => `scope=${encodeURIComponent(s)}`).join("&");
  const res = await fetch(`${inject("baseUrl")}/registry/token?service=hangar-registry&${query}`, {
    headers: { authorization: basic(token) },
  });
  if (res.status !== 200) return res.status;
  const { token: jwt } = (await res.json()) as { token: string };
  return decodeJwt(jwt).access;
}

const buildToken = () =>
  issueBuildToken(
    testDb(),
    { id: deployment.revisionId, deploymentId: deployment.id, workspaceId: tenant.workspaceId },
    600,
  );

describe("a build's push token at GET /registry/token", () => {
  it("grants its repository, pulls of the workspace's others, nothing elsewhere", async () => {
    const { token } = await buildToken();
    const own = `${tenant.workspaceId}/${deployment.name}`;
    const base = `${tenant.workspaceId}/langgraph-base`;
    const stranger = await createTenant();
    expect(
      await grants(token, [
        `repository:${own}:push,pull`,
        `repository:${base}:push,pull`,
        `repository:${stranger.workspaceId}/langgraph-base:pull`,
        "registry:catalog:*",
      ]),
    ).toEqual([
      { type: "repository", name: own, actions: ["push", "pull"] },
      { type: "repository", name: base, actions: ["pull"] },
    ]);
  });

  it("stops working when revoked; the client's DELETE push-token leaves it to its build", async () => {
    const first = await buildToken();
    const own = `repository:${tenant.workspaceId}/${deployment.name}:pull`;
    const revoked = await api(`/v2/deployments/${deployment.id}/push-token`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    expect(await grants(first.token, [own])).toHaveLength(1);
    await revokeBuildToken(testDb(), first.id);
    expect(await grants(first.token, [own])).toBe(401);
  });

  it("leaves a client's push token to its own repository", async () => {
    const source = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: {
        name: `pushed-${Date.now().toString(36)}`,
        source: "internal_container",
        source_config: { deployment_type: "dev" },
        source_revision_config: {},
      },
    });
    expect(source.status, source.text).toBe(201);
    const issued = await api(`/v2/deployments/${source.body.id}/push-token`, {
      key: tenant.keys.editor,
      method: "POST",
    });
    expect(issued.status, issued.text).toBe(200);
    expect(
      await grants(issued.body.token, [
        `repository:${tenant.workspaceId}/${source.body.name}:pull`,
        `repository:${tenant.workspaceId}/${deployment.name}:pull`,
      ]),
    ).toEqual([
      { type: "repository", name: `${tenant.workspaceId}/${source.body.name}`, actions: ["pull"] },
    ]);
  });
});
