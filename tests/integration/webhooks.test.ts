import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { branchSha, startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { signatureOf } from "../../src/server/services/codehost-webhooks";
import { createCodehostDeployment, createIntegration } from "../helpers/codehost";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// POST /v1/webhooks/codehost/{integration_id}: build on push, authenticated by the signature.

const SECRET = "whsec-test-0123456789";
let tenant: Tenant;
let host: CodehostServer;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  host = await startCodehostServer();
  integrationId = await createIntegration(tenant.keys.admin, host, SECRET);
});
afterAll(() => host.stop());

const repoUrl = (repo = "acme/support-bot") => `${host.url}/${repo}`;

function push(overrides: Record<string, unknown> = {}, repo = "acme/support-bot") {
  return {
    ref: "refs/heads/main",
    before: "0".repeat(40),
    after: branchSha(...(repo.split("/") as [string, string]), "main"),
    created: false,
    deleted: false,
    repository: { full_name: repo, html_url: repoUrl(repo) },
    pusher: { name: "octocat" },
    ...overrides,
  };
}

function deliver(
  body: unknown,
  options: {
    id?: string;
    event?: string;
    signature?: string | null;
    integration?: string;
    githubHeaders?: boolean;
  } = {},
) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const prefix = options.githubHeaders === false ? "x-codehost" : "x-github";
  const headers: Record<string, string> = {
    "content-type": "application/json",
    [`${prefix}-event`]: options.event ?? "push",
    [`${prefix}-delivery`]: options.id ?? randomUUID(),
  };
  const signature = options.signature === undefined ? signatureOf(SECRET, raw) : options.signature;
  if (signature) headers["x-hub-signature-256"] = signature;
  return api(`/v1/webhooks/codehost/${options.integration ?? integrationId}`, {
    method: "POST",
    rawBody: raw,
    headers,
  });
}

const revisionCount = (deploymentId: string) =>
  testDb().revision.count({ where: { deploymentId } });

describe("POST /v1/webhooks/codehost/{integration_id}", () => {
  it("refuses a missing or forged signature (401) and an unknown integration (404)", async () => {
    const missing = await deliver(push(), { signature: null });
    expect(missing.status).toBe(401);
    expect(missing.body.detail).toBe("Missing X-Hub-Signature-256 header");
    const forged = await deliver(push(), {
      signature: signatureOf("not-the-secret", JSON.stringify(push())),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.detail).toBe("Invalid webhook signature");
    // A signature of other bytes (the body changed in transit) is as bad as a forged one.
    const tampered = await deliver(JSON.stringify(push({ ref: "refs/heads/dev" })), {
      signature: signatureOf(SECRET, JSON.stringify(push())),
    });
    expect(tampered.status).toBe(401);
    const unknown = await deliver(push(), { integration: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toHaveProperty("detail");
    const badId = await deliver(push(), { integration: "not-a-uuid" });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(["path", "integration_id"]);
  });

  it("answers 401 for an integration without a webhook secret", async () => {
    const bare = await createIntegration(tenant.keys.admin, host);
    const res = await deliver(push(), { integration: bare });
    expect(res.status).toBe(401);
  });

  it("creates exactly one revision per matching deployment for a push, once per delivery", async () => {
    const on = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      buildOnPush: true,
    });
    const onByRef = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      buildOnPush: true,
      ref: "refs/heads/main",
    });
    const off = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      buildOnPush: false,
    });
    const otherBranch = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      buildOnPush: true,
      ref: "dev",
    });
    const otherRepo = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      buildOnPush: true,
      repo: "acme/agent-chat",
    });
    const all = [on, onByRef, off, otherBranch, otherRepo];
    const before = await Promise.all(all.map((d) => revisionCount(d.id)));

    const id = randomUUID();
    const res = await deliver(push(), { id });
    expect(res.status, res.text).toBe(202);
    expect(res.body.deliveries).toHaveLength(2);
    const after = await Promise.all(all.map((d) => revisionCount(d.id)));
    expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 0, 0, 0]);

    const revision = await waitForRevision(res.body.deliveries[0]);
    expect(revision.status).toBe("DEPLOYED");
    expect(revision.sourceRevisionConfig).toMatchObject({ repo_commit_sha: push().after });

    const duplicate = await deliver(push(), { id });
    expect(duplicate.status).toBe(202);
    expect(duplicate.body).toEqual({ deliveries: [] });
    expect(await revisionCount(on.id)).toBe(after[0]);

    // X-Codehost-* headers work the same.
    const viaCodehostHeaders = await deliver(push(), { githubHeaders: false });
    expect(viaCodehostHeaders.status).toBe(202);
    expect(viaCodehostHeaders.body.deliveries).toHaveLength(2);
  });

  it("creates nothing for tag pushes, branch creation or deletion, or other events", async () => {
    const on = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      buildOnPush: true,
    });
    const before = await revisionCount(on.id);
    for (const body of [
      push({ ref: "refs/tags/v1.0.0" }),
      push({ created: true }),
      push({ deleted: true, after: "0".repeat(40) }),
    ]) {
      const res = await deliver(body);
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ deliveries: [] });
    }
    const ping = await deliver({ zen: "Keep it logically awesome." }, { event: "ping" });
    expect(ping.status).toBe(202);
    expect(ping.body).toEqual({ deliveries: [] });
    expect(await revisionCount(on.id)).toBe(before);
  });

  it("answers malformed but signed bodies with the contract's 422", async () => {
    const notJson = await deliver("{not json");
    expect(notJson.status).toBe(422);
    expect(notJson.body.detail[0].type).toBe("json_invalid");
    const noRepository = await deliver({ ref: "refs/heads/main", after: "a".repeat(40) });
    expect(noRepository.status).toBe(422);
    expect(noRepository.body.detail[0].loc).toEqual(["body", "repository"]);
    const noDelivery = await api(`/v1/webhooks/codehost/${integrationId}`, {
      method: "POST",
      rawBody: "{}",
      headers: { "x-github-event": "push", "x-hub-signature-256": signatureOf(SECRET, "{}") },
    });
    expect(noDelivery.status).toBe(422);
    expect(noDelivery.body.detail[0].loc).toEqual(["header", "x-github-delivery"]);
  });

  it("signs the raw bytes: a body that is not valid UTF-8 is verified as sent", async () => {
    await createCodehostDeployment(tenant.keys.editor, host, integrationId, { buildOnPush: true });
    const json = Buffer.from(JSON.stringify(push({ pusher: { name: "X" } })), "utf8");
    // Replace the "X" with a byte that is not UTF-8: decoding would turn it into U+FFFD.
    const bytes = Buffer.from(json);
    bytes[json.indexOf('"X"') + 1] = 0xff;
    const send = (signature: string) =>
      fetch(`${inject("baseUrl")}/v1/webhooks/codehost/${integrationId}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "push",
          "x-github-delivery": randomUUID(),
          "x-hub-signature-256": signature,
        },
        body: bytes,
      });
    const decoded = Buffer.from(bytes.toString("utf8"), "utf8");
    expect(decoded.equals(bytes)).toBe(false);
    expect((await send(signatureOf(SECRET, decoded))).status).toBe(401);
    const res = await send(signatureOf(SECRET, bytes));
    expect(res.status).toBe(202);
    expect(((await res.json()) as { deliveries: string[] }).deliveries.length).toBeGreaterThan(0);
  });

  it("keeps long delivery ids whole: two ids sharing a 200-character prefix are two deliveries", async () => {
    await createCodehostDeployment(tenant.keys.editor, host, integrationId, { buildOnPush: true });
    const prefix = "d".repeat(200);
    const first = await deliver(push(), { id: `${prefix}-first` });
    const second = await deliver(push(), { id: `${prefix}-second` });
    expect(first.status, first.text).toBe(202);
    expect(second.status, second.text).toBe(202);
    expect(first.body.deliveries.length).toBeGreaterThan(0);
    expect(second.body.deliveries.length).toBe(first.body.deliveries.length);
    const again = await deliver(push(), { id: `${prefix}-second` });
    expect(again.body).toEqual({ deliveries: [] });
  });

  it("answers 405 for other methods", async () => {
    const res = await api(`/v1/webhooks/codehost/${integrationId}`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
