import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "../../src/env";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { createPushToken } from "../../src/server/services/registry/push-tokens";
import { startRegistry, type RunningRegistry } from "../../testing/registry";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { writeOciLayout } from "../helpers/oci-layout";
import * as client from "../helpers/registry-push";
import { createSourceDeployment } from "../helpers/revision-fixtures";

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

/** The deploy client's calls, as this file's editor, pushing `layout` unless told otherwise. */
const createImageDeployment = (name: string) =>
  client.createImageDeployment(tenant.keys.editor, name);
const pushToken = (deploymentId: string) => client.pushToken(tenant.keys.editor, deploymentId);
const push = (image: string, token: string, from: { dir: string } = layout) =>
  client.pushLayout(image, token, from);

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

  it("promotes a pushed image to other deployments by digest: nothing built, their secrets kept", async () => {
    const dev = await createImageDeployment(`dev-${Date.now().toString(36)}`);
    const { token, registry_url } = await pushToken(dev.id);
    const image = `${registry_url}/${dev.name}:v1`;
    expect(push(image, token).ok).toBe(true);
    const patched = await api(`/v2/deployments/${dev.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { source_revision_config: { image_uri: image } },
    });
    const proven = await waitForRevision(patched.body.latest_revision_id, undefined, {
      timeoutMs: 30_000,
    });
    expect(proven.imageDigest).toBe(layout.digest);
    const pinned = `${registry.host}/${tenant.workspaceId}/${dev.name}@${layout.digest}`;

    // A deployment built from source, with its own secret: it runs the image, keeps the secret.
    const prod = await createSourceDeployment(tenant.keys.editor, {
      secrets: [{ name: "PROD_TOKEN", value: "prod-only" }],
    });
    await waitForRevision(prod.latest_revision_id);
    const promoted = await api(`/v2/deployments/${dev.id}/revisions/${proven.id}/promote`, {
      key: tenant.keys.editor,
      method: "POST",
      body: { target_deployment_id: prod.id },
    });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.headers.get("etag")).toMatch(/^W\//);
    expect(promoted.body).toMatchObject({ id: prod.id, source: "internal_source" });
    const cut = await waitForRevision(promoted.body.latest_revision_id, undefined, {
      timeoutMs: 30_000,
    });
    expect(cut.status, cut.statusMessage ?? "").toBe("DEPLOYED");
    expect(cut).toMatchObject({ source: "internal_container", imageDigest: layout.digest });
    expect(cut.imageRef).toBe(pinned);
    expect(cut.buildPlan).toBeNull();
    expect(cut.sourceConfig).toEqual(prod.source_config);
    const secrets = cut.secretsEncrypted as { name: string; value_encrypted: string }[];
    expect(secrets.map((s) => [s.name, decrypt(s.value_encrypted)])).toEqual([
      ["PROD_TOKEN", "prod-only"],
    ]);
    const lines = await testDb().revisionLog.findMany({ where: { revisionId: cut.id } });
    expect(lines.map((l) => l.line)).toContain(
      `Container source: nothing to build, image ${pinned}`,
    );
    expect(lines.map((l) => l.line)).not.toContain("Build started");
    const audit = await testDb().auditEvent.findFirstOrThrow({
      where: { action: "deployment.promote", targetId: prod.id },
    });
    expect(audit.data).toMatchObject({
      from_deployment_id: dev.id,
      from_revision: proven.number,
      image_digest: layout.digest,
      revision: cut.number,
    });

    // Through tRPC, to an image deployment: it keeps its source and now names the pinned image.
    const stage = await createImageDeployment(`stage-${Date.now().toString(36)}`);
    const caller = createCaller({ db: testDb(), requestId: "p1", actor: tenant.actors.editor });
    const staged = await caller.revisions.promote({
      deploymentId: dev.id,
      revisionId: proven.id,
      target_deployment_id: stage.id,
    });
    expect(staged.deployment.source_revision_config.image_uri).toBe(pinned);
    const stagedRevision = await waitForRevision(staged.deployment.latest_revision_id!, undefined, {
      timeoutMs: 30_000,
    });
    expect(stagedRevision).toMatchObject({
      status: "DEPLOYED",
      source: "internal_container",
      imageDigest: layout.digest,
      imageRef: pinned,
    });
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
