import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "../../src/env";
import { createPushToken } from "../../src/server/services/registry/push-tokens";
import { startRegistry, type RunningRegistry } from "../../testing/registry";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { writeOciLayout } from "../helpers/oci-layout";

// The deploy client's image flow against a real registry (Debian's docker-registry) whose token
// server is Hangar: push-token -> login -> push (skopeo) -> PATCH image_uri -> DEPLOYED at the
// pushed digest. The registry refuses every push Hangar did not authorize.

let tenant: Tenant;
let registry: RunningRegistry;
let layout: { dir: string; digest: string };
const SERVICE = "hangar-registry";

beforeAll(async () => {
  tenant = await createTenant();
  const certificate = await fetch(`${inject("baseUrl")}/registry/certificate`);
  expect(certificate.headers.get("content-type")).toContain("application/x-pem-file");
  registry = await startRegistry({
    port: inject("registryPort"),
    realm: `${inject("baseUrl")}/registry/token`,
    service: SERVICE,
    certificatePem: await certificate.text(),
  });
  layout = writeOciLayout("v1", `agent ${Date.now()}`);
});

afterAll(async () => {
  await registry?.stop();
  if (layout) rmSync(layout.dir, { recursive: true, force: true });
});

/** The deploy client's create: an internal_container deployment whose image comes later. */
async function createImageDeployment(name: string) {
  const res = await api("/v2/deployments", {
    key: tenant.keys.editor,
    method: "POST",
    body: {
      name,
      source: "internal_container",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string };
}

async function pushToken(deploymentId: string) {
  const res = await api(`/v2/deployments/${deploymentId}/push-token`, {
    key: tenant.keys.editor,
    method: "POST",
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { token: string; registry_url: string; expires_at: string };
}

/** skopeo copy of the layout to `image`, logged in as the deploy client is. */
function push(image: string, token: string, from: { dir: string } = layout) {
  const result = spawnSync(
    "skopeo",
    [
      "--insecure-policy",
      "copy",
      "--dest-tls-verify=false",
      "--dest-creds",
      `oauth2accesstoken:${token}`,
      `oci:${from.dir}:v1`,
      `docker://${image}`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

const refused = (outcome: { ok: boolean; output: string }) => {
  expect(outcome.ok, outcome.output).toBe(false);
  expect(outcome.output).toMatch(/unauthorized|denied|authentication required|401|403/i);
};

describe("image deploys through Hangar's registry", () => {
  it("pushes with a push token, refuses what it does not authorize, deploys the digest", async () => {
    const mine = await createImageDeployment(`pushed-${Date.now().toString(36)}`);
    const other = await createImageDeployment(`other-${Date.now().toString(36)}`);
    const { token, registry_url } = await pushToken(mine.id);
    expect(registry_url).toBe(`${registry.host}/${tenant.workspaceId}`);
    expect(token).toMatch(/^hgp_/);
    // Stored as a hash only.
    const stored = await testDb().pushToken.findMany({ where: { deploymentId: mine.id } });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);

    const image = `${registry_url}/${mine.name}:v1`;
    const accepted = push(image, token);
    expect(accepted.ok, accepted.output).toBe(true);

    // Another deployment's repository: the token server grants nothing there.
    refused(push(`${registry_url}/${other.name}:v1`, token));

    // A pull-only registry token cannot push, even to the token's own repository.
    const basic = `Basic ${Buffer.from(`oauth2accesstoken:${token}`).toString("base64")}`;
    const repository = `${tenant.workspaceId}/${mine.name}`;
    const pullOnly = await fetch(
      `${inject("baseUrl")}/registry/token?service=${SERVICE}&scope=repository:${repository}:pull`,
      { headers: { authorization: basic } },
    );
    expect(pullOnly.status).toBe(200);
    const pullToken = ((await pullOnly.json()) as { token: string }).token;
    const upload = await fetch(`http://${registry.host}/v2/${repository}/blobs/uploads/`, {
      method: "POST",
      headers: { authorization: `Bearer ${pullToken}` },
    });
    expect(upload.status).toBe(401);
    expect(await upload.text()).toMatch(/insufficient_scope|UNAUTHORIZED/i);
    const pull = await fetch(`http://${registry.host}/v2/${repository}/manifests/v1`, {
      method: "HEAD",
      headers: {
        authorization: `Bearer ${pullToken}`,
        accept: "application/vnd.oci.image.manifest.v1+json",
      },
    });
    expect(pull.status).toBe(200);
    expect(pull.headers.get("docker-content-digest")).toBe(layout.digest);

    // The client PATCHes the image: the revision pins the pushed digest and deploys it.
    const patched = await api(`/v2/deployments/${mine.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { source_revision_config: { image_uri: image } },
    });
    expect(patched.status, patched.text).toBe(200);
    const revision = await waitForRevision(patched.body.latest_revision_id, undefined, {
      timeoutMs: 30_000,
    });
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    expect(revision.imageRef).toBe(`${registry.host}/${repository}@${layout.digest}`);
    const read = await api(`/v2/deployments/${mine.id}/revisions/${revision.id}`, {
      key: tenant.keys.viewer,
    });
    expect(read.body).toMatchObject({
      image_digest: layout.digest,
      source_revision_config: { image_uri: image },
    });

    // Revoked: the token server refuses it, so the registry does.
    const revoke = await api(`/v2/deployments/${mine.id}/push-token`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(revoke.status).toBe(204);
    refused(push(image, token));

    // Expired: the same for a token past its hour.
    const late = await pushToken(mine.id);
    await testDb().pushToken.updateMany({
      where: { deploymentId: mine.id, revokedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    refused(push(image, late.token));
    const expired = await fetch(`${inject("baseUrl")}/registry/token?service=${SERVICE}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`oauth2accesstoken:${late.token}`).toString("base64")}`,
      },
    });
    expect(expired.status).toBe(401);
  });

  it("a re-pushed tag deploys the new image; a redeploy keeps the digest it restores", async () => {
    const mine = await createImageDeployment(`repushed-${Date.now().toString(36)}`);
    const { token, registry_url } = await pushToken(mine.id);
    const image = `${registry_url}/${mine.name}:v1`;
    const deploy = async () => {
      const patched = await api(`/v2/deployments/${mine.id}`, {
        key: tenant.keys.editor,
        method: "PATCH",
        body: { source_revision_config: { image_uri: image } },
      });
      expect(patched.status, patched.text).toBe(200);
      return waitForRevision(patched.body.latest_revision_id, undefined, { timeoutMs: 30_000 });
    };
    expect(push(image, token).ok).toBe(true);
    const first = await deploy();
    expect(first.imageDigest).toBe(layout.digest);

    const second = writeOciLayout("v1", `agent, rebuilt ${Date.now()}`);
    try {
      const repushed = push(image, token, second);
      expect(repushed.ok, repushed.output).toBe(true);
      const latest = await deploy();
      expect(latest.status, latest.statusMessage ?? "").toBe("DEPLOYED");
      expect(latest.imageDigest).toBe(second.digest);
      expect(second.digest).not.toBe(layout.digest);

      // Rolling back to the first revision deploys what it deployed, not what v1 names now.
      const redeployed = await api(`/v2/deployments/${mine.id}/revisions/${first.id}/redeploy`, {
        key: tenant.keys.editor,
        method: "POST",
      });
      expect(redeployed.status, redeployed.text).toBe(200);
      const restored = await waitForRevision(redeployed.body.latest_revision_id, undefined, {
        timeoutMs: 30_000,
      });
      expect(restored.status, restored.statusMessage ?? "").toBe("DEPLOYED");
      expect(restored.imageDigest).toBe(layout.digest);
      expect(restored.imageRef).toBe(
        `${registry.host}/${tenant.workspaceId}/${mine.name}@${layout.digest}`,
      );
    } finally {
      rmSync(second.dir, { recursive: true, force: true });
    }
  });

  it("answers push-token only for image deployments of the caller's workspace", async () => {
    const sourceDeployment = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: {
        name: `uploaded-${Date.now().toString(36)}`,
        source: "internal_source",
        source_config: { deployment_type: "dev" },
        source_revision_config: {},
      },
    });
    expect(sourceDeployment.status, sourceDeployment.text).toBe(201);
    const wrongSource = await api(`/v2/deployments/${sourceDeployment.body.id}/push-token`, {
      key: tenant.keys.editor,
      method: "POST",
    });
    expect(wrongSource.status).toBe(400);
    expect(wrongSource.body.detail).toContain("internal_source");

    const mine = await createImageDeployment(`guarded-${Date.now().toString(36)}`);
    const stranger = await createTenant();
    const foreign = await api(`/v2/deployments/${mine.id}/push-token`, {
      key: stranger.keys.editor,
      method: "POST",
    });
    expect(foreign.status).toBe(404);
    const viewer = await api(`/v2/deployments/${mine.id}/push-token`, {
      key: tenant.keys.viewer,
      method: "POST",
    });
    expect(viewer.status).toBe(403);

    // No registry configured: 503 with a clear detail.
    const configured = env.HANGAR_REGISTRY_URL;
    env.HANGAR_REGISTRY_URL = undefined;
    try {
      await expect(createPushToken(testDb(), tenant.actors.editor, mine.id)).rejects.toMatchObject({
        code: "unavailable",
        message: expect.stringContaining("HANGAR_REGISTRY_URL"),
      });
    } finally {
      env.HANGAR_REGISTRY_URL = configured;
    }

    // The token server: no or wrong credentials are 401.
    const anonymous = await fetch(`${inject("baseUrl")}/registry/token?service=${SERVICE}`);
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(`${inject("baseUrl")}/registry/token?service=${SERVICE}`, {
      headers: {
        authorization: `Basic ${Buffer.from("oauth2accesstoken:hgp_nope").toString("base64")}`,
      },
    });
    expect(wrong.status).toBe(401);
  });
});
