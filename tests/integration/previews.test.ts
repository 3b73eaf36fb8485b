import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  SAMPLE_FILES,
  sampleRepositories,
  startCodehostServer,
  type CodehostServer,
} from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import type { Actor } from "../../src/server/auth/actor";
import { createIntegration } from "../helpers/codehost";
import { waitFor, waitForDeploymentGone, waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  createPreviewParent,
  logOf,
  previewsOf,
  secretNamesOf,
  webhookUrl,
} from "../helpers/previews";

// Preview deployments on the shared (dry-run) server: the previews contract, signed
// pull_request deliveries once each, max_open, the list filter, another workspace's 404,
// commit statuses that say "dry run" (no cluster, no builder), and a fork's preview: every
// revision builds the pull request's head from the fork, and its secrets wait for an editor's
// approval of each new commit. The Kubernetes half, with real builds, is
// previews-kubernetes.test.ts.

const SECRET = "whsec-previews-0123456789";
let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  host = await startCodehostServer({
    repos: [
      ...sampleRepositories,
      // A base repository with a branch named like the fork's head branch, and other files.
      {
        id: 1101,
        owner: "acme",
        name: "fork-target",
        branches: ["main", "patch-1"],
        branchFiles: { "patch-1": { ...SAMPLE_FILES, "BASE_BRANCH.md": "not the fork's\n" } },
      },
    ],
  });
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

describe("a fork's preview", () => {
  const FORK = "mallory/fork-target";
  const trpc = (actor: Actor) => createCaller({ db: testDb(), requestId: "trpc", actor });
  const read = async (id: string) => {
    const res = await api(`/v2/deployments/${id}`, { key: tenant.keys.viewer });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const approve = (id: string, head_sha: string, key = tenant.keys.editor) =>
    api(`/v2/deployments/${id}/preview/approve`, { key, method: "POST", body: { head_sha } });
  /** The commit statuses a revision got, once its final one (not pending) arrived. */
  const finalStatusOf = async (sha: string, number: number) => {
    const statuses = await waitFor(
      async () =>
        statusesOf(sha).filter((s) => s.description?.includes(`revision ${number} `) ?? false),
      (s) => s.some((x) => x.state !== "pending"),
      { what: `revision ${number}'s final commit status` },
    );
    return statuses.at(-1)!;
  };

  it("builds the pull request's head from the fork on every revision; secrets wait for an approved commit", async () => {
    const parent = await createPreviewParent(tenant.keys.editor, host, integrationId, {
      repo: "acme/fork-target",
      previews: { secrets: "inherit" },
    });
    const { pr, deliveries } = await host.pulls.open({
      repo: "acme/fork-target",
      fork: FORK,
      head: "patch-1",
      files: { ...SAMPLE_FILES, "FORK_HEAD_1.md": "the fork's first commit\n" },
    });
    expect(deliveries[0]!.status, JSON.stringify(deliveries[0]!.body)).toBe(202);
    // The pull request object moves with its pushes: its first head, kept.
    const firstSha = pr.headSha;
    const previewId = deliveries[0]!.body.previews[0]!.preview_id!;
    const first = await waitForRevision(deliveries[0]!.body.deliveries[0]!);
    expect(first.status, first.statusMessage ?? "").toBe("DEPLOYED");
    expect(first.sourceRevisionConfig).toMatchObject({ repo_commit_sha: pr.headSha });
    expect(await read(previewId)).toMatchObject({
      secrets: [],
      preview: { fork: true, branch: "patch-1", head_sha: firstSha },
    });

    // An editor gives the preview a secret: the revision it cuts builds the pull request's head
    // (the fork's commit, through the base repository's pull request ref), never the base
    // repository's branch of the same name, and runs without the secret: nobody approved it.
    const patched = await api(`/v2/deployments/${previewId}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { secrets: [{ name: "PREVIEW_TOKEN", value: "tok-for-approved-commits" }] },
    });
    expect(patched.status, patched.text).toBe(200);
    const second = await waitForRevision(patched.body.latest_revision_id);
    expect(second.sourceRevisionConfig).toMatchObject({
      repo_ref: "patch-1",
      repo_commit_sha: pr.headSha,
    });
    expect(second).toMatchObject({ number: 2, status: "DEPLOYED", secretsWithheld: true });
    expect(secretNamesOf(second)).toEqual([]);
    // The preview says where its head lives, and that no commit of it was approved.
    expect((await read(previewId)).preview).toMatchObject({
      head_sha: firstSha,
      head_repo_url: `${host.url}/${FORK}`,
      approved_sha: null,
    });
    const secondLog = await logOf(tenant.keys.viewer, previewId, second.id);
    expect(secondLog).toContain(`Using commit ${pr.headSha} of acme/fork-target`);
    expect(secondLog).toContain(
      `Pull request #${pr.number}'s head commit ${pr.headSha} from the fork ${FORK} (branch patch-1), fetched through acme/fork-target's refs/pull/${pr.number}/head, not from a branch of acme/fork-target`,
    );
    expect(secondLog).toContain("Built without secrets: a new commit from a fork awaits approval.");
    expect(secondLog).toContain("  FORK_HEAD_1.md");
    expect(secondLog).not.toContain("  BASE_BRANCH.md");
    expect(host.requests).toContain(`GET /repos/acme/fork-target/tarball/${pr.headSha}`);
    expect(host.requests).not.toContain("GET /repos/acme/fork-target/branches/patch-1");
    expect(await finalStatusOf(pr.headSha, 2)).toMatchObject({
      state: "success",
      description:
        "Dry run: revision 2 was recorded, nothing was started (no cluster configured). Without secrets: a new commit from a fork awaits approval.",
    });

    // Pointing the preview elsewhere is refused (400), as is promoting an image to it.
    const elsewhere = await api(`/v2/deployments/${previewId}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { source_revision_config: { repo_ref: "main" } },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({
      detail: `${(await read(previewId)).name} previews pull request #${pr.number}: its revisions build the pull request's head commit, so source_revision_config.repo_ref stays "patch-1".`,
      code: "bad_request",
    });
    const image = await api(`/v2/deployments/${previewId}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: {
        revision_source: "internal_container",
        source_revision_config: { image_uri: "registry.example/other:1" },
      },
    });
    expect(image.status).toBe(400);
    expect(image.body.detail).toMatch(/so revision_source stays codehost\.$/);
    const repo = await api(`/v2/deployments/${previewId}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { source_config: { repo_url: `${host.url}/${FORK}` } },
    });
    expect(repo.status).toBe(400);
    const promoted = await api(
      `/v2/deployments/${parent.id}/revisions/${parent.latest_revision_id}/promote`,
      { key: tenant.keys.editor, method: "POST", body: { target_deployment_id: previewId } },
    );
    expect(promoted.status).toBe(400);
    expect(promoted.body.detail).toMatch(/so no image is promoted to it\.$/);
    // The same branch name is accepted (it is the preview's own), as the settings form sends it.
    const same = await api(`/v2/deployments/${previewId}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: {
        source_revision_config: { repo_ref: "patch-1", graph_config_path: "langgraph.json" },
      },
    });
    expect(same.status, same.text).toBe(200);
    const third = await waitForRevision(same.body.latest_revision_id);
    expect(third).toMatchObject({ number: 3, status: "DEPLOYED", secretsWithheld: true });
    expect(third.sourceRevisionConfig).toMatchObject({ repo_commit_sha: pr.headSha });

    // Approval: an editor's, of the commit they reviewed, in this workspace.
    expect((await approve(previewId, pr.headSha, tenant.keys.viewer)).status).toBe(403);
    const foreign = await approve(previewId, pr.headSha, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      detail: `Deployment ID ${previewId} not found.`,
      code: "not_found",
    });
    const stale = await approve(previewId, "0".repeat(40));
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("conflict");
    expect(stale.body.detail).toContain(`whose head is now ${pr.headSha}, not ${"0".repeat(40)}`);
    const malformed = await approve(previewId, "not-a-sha");
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(["body", "head_sha"]);
    expect((await approve(parent.id, pr.headSha)).status).toBe(400);

    const approved = await approve(previewId, pr.headSha);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.headers.get("etag")).toBeTruthy();
    expect(approved.body.preview).toMatchObject({ head_sha: pr.headSha, approved_sha: pr.headSha });
    const fourth = await waitForRevision(approved.body.latest_revision_id);
    expect(fourth).toMatchObject({ number: 4, status: "DEPLOYED", secretsWithheld: false });
    expect(fourth.sourceRevisionConfig).toMatchObject({ repo_commit_sha: pr.headSha });
    expect(secretNamesOf(fourth)).toEqual(["PREVIEW_TOKEN"]);
    expect(await logOf(tenant.keys.viewer, previewId, fourth.id)).not.toContain(
      "Built without secrets: a new commit from a fork awaits approval.",
    );
    expect(await finalStatusOf(pr.headSha, 4)).toMatchObject({
      state: "success",
      description: "Dry run: revision 4 was recorded, nothing was started (no cluster configured).",
    });
    // Approving the approved commit again changes nothing.
    const again = await approve(previewId, pr.headSha);
    expect(again.status).toBe(200);
    expect(again.body.latest_revision_id).toBe(fourth.id);
    const audit = await testDb().auditEvent.findFirst({
      where: { targetId: previewId, action: "deployment.preview_approve" },
    });
    expect(audit?.data).toMatchObject({ pr: pr.number, commit: pr.headSha, revision: 4 });

    // The fork pushes a new commit: built (from the fork) without the secret until approved.
    const pushed = await host.pulls.push("acme/fork-target", pr.number, {
      files: { ...SAMPLE_FILES, "FORK_HEAD_2.md": "the fork's unreviewed commit\n" },
    });
    const headSha = pushed.pr.headSha;
    expect(headSha).not.toBe(firstSha);
    const fifth = await waitForRevision(pushed.deliveries[0]!.body.deliveries[0]!);
    expect(fifth).toMatchObject({ number: 5, status: "DEPLOYED", secretsWithheld: true });
    expect(fifth.sourceRevisionConfig).toMatchObject({ repo_commit_sha: headSha });
    expect(secretNamesOf(fifth)).toEqual([]);
    const fifthLog = await logOf(tenant.keys.viewer, previewId, fifth.id);
    expect(fifthLog).toContain("Built without secrets: a new commit from a fork awaits approval.");
    expect(fifthLog.find((l) => l.startsWith("The preview's secrets"))).toBe(
      `The preview's secrets apply once an editor approves ${headSha} (approved: ${firstSha}).`,
    );
    expect(fifthLog).toContain("  FORK_HEAD_2.md");
    expect(await finalStatusOf(headSha, 5)).toMatchObject({
      state: "success",
      description:
        "Dry run: revision 5 was recorded, nothing was started (no cluster configured). Without secrets: a new commit from a fork awaits approval.",
    });
    expect(await read(previewId)).toMatchObject({
      secrets: [{ name: "PREVIEW_TOKEN", value: "********" }],
      preview: { head_sha: headSha, approved_sha: firstSha },
    });

    // Redeploying the approved revision builds the pull request's head, still without secrets.
    const redeployed = await api(`/v2/deployments/${previewId}/revisions/${fourth.id}/redeploy`, {
      key: tenant.keys.editor,
      method: "POST",
    });
    expect(redeployed.status, redeployed.text).toBe(200);
    const sixth = await waitForRevision(redeployed.body.latest_revision_id);
    expect(sixth).toMatchObject({ number: 6, status: "DEPLOYED", secretsWithheld: true });
    expect(sixth.sourceRevisionConfig).toMatchObject({ repo_commit_sha: headSha });
    expect(secretNamesOf(sixth)).toEqual([]);

    // The dashboard's door approves the new commit: built with the secret again.
    await expect(
      trpc(other.actors.admin).previews.approve({ deploymentId: previewId, head_sha: headSha }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const viaTrpc = await trpc(tenant.actors.editor).previews.approve({
      deploymentId: previewId,
      head_sha: headSha,
    });
    expect(viaTrpc.deployment.preview).toMatchObject({ approved_sha: headSha });
    const seventh = await waitForRevision(viaTrpc.deployment.latest_revision_id!);
    expect(seventh).toMatchObject({ number: 7, status: "DEPLOYED", secretsWithheld: false });
    expect(seventh.sourceRevisionConfig).toMatchObject({ repo_commit_sha: headSha });
    expect(secretNamesOf(seventh)).toEqual(["PREVIEW_TOKEN"]);
    // The preview of the other workspace's list stays invisible; approvals never leak across.
    expect(await previewsOf(other.keys.admin, parent.id)).toEqual([]);
  });

  it("a preview of the repository's own branch keeps its secrets and needs no approval", async () => {
    await createPreviewParent(tenant.keys.editor, host, integrationId, {
      repo: "beta-labs/Eval-Harness",
      previews: { secrets: "inherit" },
    });
    const { pr, deliveries } = await host.pulls.open({ repo: "beta-labs/Eval-Harness" });
    const previewId = deliveries[0]!.body.previews[0]!.preview_id!;
    await waitForRevision(deliveries[0]!.body.deliveries[0]!);
    expect(await read(previewId)).toMatchObject({
      secrets: [{ name: "OPENAI_API_KEY" }],
      preview: { fork: false },
    });
    const patched = await api(`/v2/deployments/${previewId}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: {
        secrets: [
          { name: "OPENAI_API_KEY", value: "********" },
          { name: "EXTRA", value: "x" },
        ],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const second = await waitForRevision(patched.body.latest_revision_id);
    expect(second.status, second.statusMessage ?? "").toBe("DEPLOYED");
    expect(second.sourceRevisionConfig).toMatchObject({ repo_commit_sha: pr.headSha });
    expect(secretNamesOf(second).sort()).toEqual(["EXTRA", "OPENAI_API_KEY"]);
    expect(second.secretsWithheld).toBe(false);
    expect((await read(previewId)).preview).toMatchObject({
      approved_sha: null,
      head_repo_url: `${host.url}/beta-labs/Eval-Harness`,
    });
    const approval = await approve(previewId, pr.headSha);
    expect(approval.status).toBe(400);
    expect(approval.body.detail).toMatch(
      /from the repository itself: its revisions get its secrets without approval\.$/,
    );
  });
});
