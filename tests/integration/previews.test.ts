import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import type { Actor } from "../../src/server/auth/actor";
import { createIntegration } from "../helpers/codehost";
import { waitFor, waitForDeploymentGone, waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { createPreviewParent, previewsOf, webhookUrl } from "../helpers/previews";

// Preview deployments on the shared (dry-run) server: the previews contract, signed
// pull_request deliveries once each, max_open, the list filter, another workspace's 404, and
// commit statuses that say "dry run" (no cluster, no builder). The Kubernetes half, with real
// builds, is previews-kubernetes.test.ts.

const SECRET = "whsec-previews-0123456789";
let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  host = await startCodehostServer();
  integrationId = await createIntegration(tenant.keys.admin, host, SECRET);
  host.pulls.addWebhook(webhookUrl(inject("baseUrl"), integrationId), SECRET);
});
afterAll(() => host?.stop());

const statusesOf = (sha: string) => host.pulls.statuses.filter((s) => s.sha === sha);

describe("source_config.previews", () => {
  const create = (source_config: Record<string, unknown>, source = "codehost") =>
    api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: {
        name: `bad-${Date.now().toString(36)}`,
        source,
        source_config: {
          integration_id: integrationId,
          repo_url: `${host.url}/acme/support-bot`,
          ...source_config,
        },
        source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
      },
    });

  it("needs build_on_push (422 on the field) and refuses bad members (422)", async () => {
    const off = await create({ previews: { enabled: true } });
    expect(off.status, off.text).toBe(422);
    expect(off.body.detail[0]).toMatchObject({
      loc: ["body", "source_config", "previews", "enabled"],
      type: "previews_need_build_on_push",
    });
    const big = await create({ build_on_push: true, previews: { enabled: true, max_open: 0 } });
    expect(big.status).toBe(422);
    expect(big.body.detail[0].loc).toEqual(["body", "source_config", "previews", "max_open"]);
    const secrets = await create({
      build_on_push: true,
      previews: { enabled: true, secrets: "all" },
    });
    expect(secrets.status).toBe(422);
    const unknown = await create({ build_on_push: true, previews: { enabled: true, ttl: 3 } });
    expect(unknown.status).toBe(422);
  });

  it("is refused for other sources (400) and stored with its defaults", async () => {
    const container = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: {
        name: `img-${Date.now().toString(36)}`,
        source: "internal_container",
        source_config: { previews: { enabled: true } },
        source_revision_config: { image_uri: "registry.example/a:1" },
      },
    });
    expect(container.status).toBe(400);
    expect(container.body.detail).toBe(
      "source_config.previews is not allowed for source internal_container.",
    );
    const parent = await createPreviewParent(tenant.keys.editor, host, integrationId);
    expect(parent.source_config.previews).toEqual({
      enabled: true,
      max_open: 5,
      ttl_hours: 72,
      secrets: "none",
    });
    expect(parent.preview).toBeNull();
  });
});

describe("patching source_config.previews", () => {
  it("turns previews on, changes and clears them without a new revision; needs build_on_push", async () => {
    const parent = await createPreviewParent(tenant.keys.editor, host, integrationId, {
      previews: { enabled: false },
    });
    expect(parent.source_config.previews).toMatchObject({ enabled: false });
    const patch = (source_config: Record<string, unknown>, key = tenant.keys.editor) =>
      api(`/v2/deployments/${parent.id}`, { key, method: "PATCH", body: { source_config } });

    const on = await patch({ previews: { enabled: true, max_open: 7, secrets: "inherit" } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.source_config.previews).toEqual({
      enabled: true,
      max_open: 7,
      ttl_hours: 72,
      secrets: "inherit",
    });
    expect(on.body.latest_revision_id).toBe(parent.latest_revision_id);

    // The dashboard's door (tRPC), as the settings form sends it: the whole object.
    const caller = createCaller({ db: testDb(), requestId: "trpc", actor: tenant.actors.editor });
    const ttl = await caller.deployments.patch({
      id: parent.id,
      patch: {
        source_config: { previews: { enabled: true, max_open: 7, ttl_hours: 24, secrets: "none" } },
      },
    });
    expect(ttl.deployment.source_config.previews).toEqual({
      enabled: true,
      max_open: 7,
      ttl_hours: 24,
      secrets: "none",
    });
    await expect(
      caller.deployments.patch({
        id: parent.id,
        patch: { source_config: { previews: { enabled: true, ttl_hours: 721 } } },
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    // build_on_push off while previews are on: refused on the previews field.
    const off = await patch({ build_on_push: false });
    expect(off.status).toBe(422);
    expect(off.body.detail[0]).toMatchObject({
      loc: ["body", "source_config", "previews", "enabled"],
      type: "previews_need_build_on_push",
    });
    const bad = await patch({ previews: { enabled: true, max_open: 51 } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "source_config", "previews", "max_open"]);
    const viewer = await patch({ previews: { enabled: false } }, tenant.keys.viewer);
    expect(viewer.status).toBe(403);
    const elsewhere = await patch({ previews: { enabled: false } }, other.keys.admin);
    expect(elsewhere.status).toBe(404);

    const cleared = await patch({ previews: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.source_config.previews).toBeNull();
    const read = await api(`/v2/deployments/${parent.id}`, { key: tenant.keys.viewer });
    expect(read.body.source_config.previews).toBeNull();
    expect(read.body.latest_revision_id).toBe(parent.latest_revision_id);
  });
});

describe("pull_request deliveries (dry run)", () => {
  it("open creates a preview (parent's configuration, the head commit, no secrets), once per delivery", async () => {
    const parent = await createPreviewParent(tenant.keys.editor, host, integrationId, {
      repo: "acme/agent-chat",
    });
    const { pr, deliveries } = await host.pulls.open({
      repo: "acme/agent-chat",
      title: "Friendlier greeting",
      author: "alice",
      head: "greeting",
    });
    const [delivery] = deliveries;
    expect(delivery!.status, JSON.stringify(delivery!.body)).toBe(202);
    expect(delivery!.body.previews).toEqual([
      { parent_id: parent.id, preview_id: expect.any(String), outcome: "created", detail: null },
    ]);
    expect(delivery!.body.deliveries).toHaveLength(1);
    const previewId = delivery!.body.previews[0]!.preview_id!;

    const read = await api(`/v2/deployments/${previewId}`, { key: tenant.keys.viewer });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      name: `${parent.name}-pr-${pr.number}`,
      source: "codehost",
      secrets: [],
      source_config: {
        deployment_type: "dev",
        repo_url: parent.source_config.repo_url,
        install_command: parent.source_config.install_command,
        build_on_push: false,
        previews: null,
      },
      source_revision_config: { repo_ref: "greeting", graph_config_path: "langgraph.json" },
      preview: {
        parent_id: parent.id,
        pr_number: pr.number,
        pr_title: "Friendlier greeting",
        pr_url: `${host.url}/acme/agent-chat/pull/${pr.number}`,
        branch: "greeting",
        author: "alice",
        head_sha: pr.headSha,
        fork: false,
        last_push_at: expect.any(String),
      },
    });

    const revision = await waitForRevision(delivery!.body.deliveries[0]!);
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    expect(revision.sourceRevisionConfig).toMatchObject({ repo_commit_sha: pr.headSha });
    expect(revision.runtime).toBe("dry_run");

    // Statuses on the head commit: pending first, and a dry run never claims a running preview.
    const statuses = await waitFor(
      async () => statusesOf(pr.headSha),
      (s) => s.some((x) => x.state !== "pending"),
      { what: "a final commit status" },
    );
    expect(statuses[0]).toMatchObject({ state: "pending", context: "hangar/preview" });
    expect(statuses.at(-1)).toMatchObject({
      owner: "acme",
      repo: "agent-chat",
      state: "success",
      target_url: null,
      context: "hangar/preview",
      description: "Dry run: revision 1 was recorded, nothing was started (no cluster configured).",
    });
    expect(statuses.every((s) => s.authorization === "token codehost-dev-token")).toBe(true);

    // The same delivery again: nothing new.
    const again = await host.pulls.deliver("pull_request", host.pulls.payload(pr, "opened"), {
      id: delivery!.id,
    });
    expect(again[0]!.status).toBe(202);
    expect(again[0]!.body).toEqual({ deliveries: [], previews: [] });
    expect(await previewsOf(tenant.keys.viewer, parent.id)).toHaveLength(1);

    // The list hides or shows previews.
    const without = await api(`/v2/deployments?previews=exclude&limit=100`, {
      key: tenant.keys.viewer,
    });
    expect(without.body.resources.map((d: { id: string }) => d.id)).not.toContain(previewId);
    const only = await api(`/v2/deployments?previews=only&limit=100`, { key: tenant.keys.viewer });
    expect(only.body.resources.map((d: { id: string }) => d.id)).toEqual([previewId]);
    const bad = await api(`/v2/deployments?previews=some`, { key: tenant.keys.viewer });
    expect(bad.status).toBe(422);

    // Another workspace sees no such preview.
    const foreign = await api(`/v2/deployments/${previewId}`, { key: other.keys.admin });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`Deployment ID ${previewId} not found.`);
    const foreignDelete = await api(`/v2/deployments/${previewId}`, {
      key: other.keys.admin,
      method: "DELETE",
    });
    expect(foreignDelete.status).toBe(404);
    expect(await previewsOf(other.keys.admin, parent.id)).toEqual([]);

    // The dashboard's list (tRPC): the parent's previews with their revisions; none elsewhere.
    const trpc = (actor: Actor) => createCaller({ db: testDb(), requestId: "trpc", actor });
    const mine = await trpc(tenant.actors.viewer).deployments.list({
      parent_id: parent.id,
      previews: "only",
    });
    expect(mine.total).toBe(1);
    expect(mine.resources[0]).toMatchObject({
      id: previewId,
      preview: { pr_number: pr.number },
      latest_revision: { number: 1, status: "DEPLOYED" },
    });
    const theirs = await trpc(other.actors.admin).deployments.list({ parent_id: parent.id });
    expect(theirs).toMatchObject({ total: 0, resources: [] });
    await expect(
      trpc(tenant.actors.viewer).deployments.list({ previews: "hidden" as never }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const foreignRead = trpc(other.actors.admin).deployments.get({ id: previewId });
    await expect(foreignRead).rejects.toMatchObject({ code: "NOT_FOUND" });

    // synchronize: a second revision of the same preview; closed: deleted.
    const pushed = await host.pulls.push("acme/agent-chat", pr.number);
    expect(pushed.deliveries[0]!.body.previews[0]).toMatchObject({
      preview_id: previewId,
      outcome: "updated",
    });
    const second = await waitForRevision(pushed.deliveries[0]!.body.deliveries[0]!);
    expect(second).toMatchObject({ number: 2, status: "DEPLOYED" });
    expect(second.sourceRevisionConfig).toMatchObject({ repo_commit_sha: pushed.pr.headSha });

    const closed = await host.pulls.close("acme/agent-chat", pr.number, true);
    expect(closed.deliveries[0]!.body.previews).toEqual([
      {
        parent_id: parent.id,
        preview_id: previewId,
        outcome: "deleted",
        detail: `Pull request #${pr.number} was merged.`,
      },
    ]);
    await waitForDeploymentGone(tenant.keys.viewer, previewId);
    // Reopened once the old one is gone: a new preview at the head commit.
    const reopened = await host.pulls.reopen("acme/agent-chat", pr.number);
    expect(reopened.deliveries[0]!.body.previews[0]).toMatchObject({ outcome: "created" });
    expect(reopened.deliveries[0]!.body.previews[0]!.preview_id).not.toBe(previewId);
    const parentAfter = await api(`/v2/deployments/${parent.id}`, { key: tenant.keys.viewer });
    expect(parentAfter.status).toBe(200);
  });

  it("refuses a forged signature (401) and leaves a pull request into another branch alone", async () => {
    const parent = await createPreviewParent(tenant.keys.editor, host, integrationId, {
      repo: "acme/research-agent",
    });
    const forged = await host.pulls.open(
      { repo: "acme/research-agent" },
      { secret: "not-the-secret" },
    );
    expect(forged.deliveries[0]!.status).toBe(401);
    expect(forged.deliveries[0]!.body.detail).toBe("Invalid webhook signature");
    const malformed = await host.pulls.deliver("pull_request", { action: "opened", number: 3 });
    expect(malformed[0]!.status).toBe(422);
    expect(malformed[0]!.body.detail).toEqual(
      expect.arrayContaining([expect.objectContaining({ loc: ["body", "pull_request"] })]),
    );
    const elsewhere = await host.pulls.open({ repo: "acme/research-agent", base: "dev" });
    expect(elsewhere.deliveries[0]!.body).toEqual({ deliveries: [], previews: [] });
    expect(await previewsOf(tenant.keys.viewer, parent.id)).toEqual([]);
  });

  it("opens at most max_open previews and says so", async () => {
    const parent = await createPreviewParent(tenant.keys.editor, host, integrationId, {
      repo: "beta-labs/rag-server",
      previews: { max_open: 1 },
    });
    const first = await host.pulls.open({ repo: "beta-labs/rag-server" });
    expect(first.deliveries[0]!.body.previews[0]!.outcome).toBe("created");
    const second = await host.pulls.open({ repo: "beta-labs/rag-server" });
    expect(second.deliveries[0]!.body).toEqual({
      deliveries: [],
      previews: [
        {
          parent_id: parent.id,
          preview_id: null,
          outcome: "refused",
          detail: `${parent.name} already has 1 open previews (max_open 1): close a pull request or raise previews.max_open.`,
        },
      ],
    });
    // Deleting the parent deletes its previews.
    const previewId = first.deliveries[0]!.body.previews[0]!.preview_id!;
    const removed = await api(`/v2/deployments/${parent.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    await waitForDeploymentGone(tenant.keys.viewer, previewId);
    expect(await testDb().deployment.count({ where: { id: previewId } })).toBe(0);
  });
});
