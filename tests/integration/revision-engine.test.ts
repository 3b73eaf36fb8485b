import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchSha, startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCodehostDeployment, createIntegration } from "../helpers/codehost";
import { engineGate, waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { DRY_RUN_MESSAGE } from "../../src/server/jobs/drivers/recording";
import { appendLogs } from "../../src/server/services/revisions/logs-append";
import { createDeployment, patchOk, revisionsOf, uniqueName } from "../helpers/revision-fixtures";

// The revision engine end to end: the test server's worker drives revisions from QUEUED to a
// final status against a local code host.

let tenant: Tenant;
let host: CodehostServer;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  host = await startCodehostServer();
  integrationId = await createIntegration(tenant.keys.admin, host);
});
afterAll(() => host.stop());

const getDeployment = (id: string) => api(`/v2/deployments/${id}`, { key: tenant.keys.viewer });

describe("a codehost deployment", () => {
  it("reaches DEPLOYED and READY with the commit the code host resolves", async () => {
    const created = await createCodehostDeployment(tenant.keys.editor, host, integrationId);
    expect(created.status).toBe("AWAITING_DATABASE");
    const revision = await waitForRevision(created.latest_revision_id);
    expect(revision.status).toBe("DEPLOYED");

    const sha = branchSha("acme", "support-bot", "main");
    const deployment = await getDeployment(created.id);
    // No cluster is configured: the revision and the deployment say nothing was started.
    expect(revision.statusMessage).toBe(DRY_RUN_MESSAGE);
    expect(deployment.body).toMatchObject({
      status: "READY",
      runtime: "dry_run",
      active_revision_id: created.latest_revision_id,
      source_revision_config: { repo_ref: "main", repo_commit_sha: sha },
    });
    const shown = await api(`/v2/deployments/${created.id}/revisions/${revision.id}`, {
      key: tenant.keys.viewer,
    });
    expect(shown.body).toMatchObject({
      status: "DEPLOYED",
      source_revision_config: { repo_commit_sha: sha },
    });

    // The default builder records a content-addressed image and its plan; manifests are redacted.
    expect(revision.imageRef).toMatch(/^hangar\.local\/builds:[0-9a-f]{64}$/);
    expect(revision.buildPlan).toMatchObject({
      source: "codehost",
      repo_commit_sha: sha,
      install_command: "pip install -e .",
      graph_config_path: "langgraph.json",
    });
    const manifests = JSON.stringify(revision.manifests);
    expect(manifests).toContain(revision.imageRef);
    expect(manifests).not.toContain("sk-very-secret-value");
    expect(manifests).not.toContain(Buffer.from("sk-very-secret-value").toString("base64"));
    const logs = await testDb().revisionLog.findMany({ where: { revisionId: revision.id } });
    expect(logs.map((l) => l.line).join("\n")).toContain(
      `Resolved acme/support-bot@main to ${sha}`,
    );
    expect(logs.map((l) => l.line).join("\n")).not.toContain("sk-very-secret-value");
    expect(host.requests).toContain("GET /repos/acme/support-bot/branches/main");
  });

  it("fails CREATE_FAILED naming a missing branch, and stays AWAITING_DATABASE", async () => {
    const created = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      ref: "nope",
    });
    const revision = await waitForRevision(created.latest_revision_id);
    expect(revision).toMatchObject({
      status: "CREATE_FAILED",
      statusMessage: 'Branch "nope" not found in acme/support-bot',
    });
    const deployment = await getDeployment(created.id);
    expect(deployment.body).toMatchObject({
      status: "AWAITING_DATABASE",
      active_revision_id: null,
    });
  });

  it("fails BUILD_FAILED naming a graph config file the repository lacks", async () => {
    const created = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      repo: "Zeta/no-config",
    });
    const revision = await waitForRevision(created.latest_revision_id);
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toBe(
      `langgraph.json: not found in the repository at ${branchSha("Zeta", "no-config", "main")} (graph_config_path)`,
    );
  });
});

describe("several revisions of one deployment", () => {
  it("skips the middle of three quick patches and deploys the newest", async () => {
    const created = await createDeployment(tenant.keys.editor);
    await waitForRevision(created.latest_revision_id, ["DEPLOYED"]);
    // Revision 2 waits at its deploy step before 3 and 4 are cut, so both exist before 3 could
    // be admitted (one revision in flight per deployment): the newest wins, whatever the
    // worker's speed. (Cut 3 while 2 is still before its build and 2 is the one skipped.)
    const hold = { step: "deploy", name: created.name } as const;
    await engineGate().hold(hold);
    const patch = (tag: string) =>
      patchOk(tenant.keys.editor, created.id, {
        source_revision_config: { image_uri: `registry.example/app:${tag}` },
      });
    try {
      await patch("a");
      await engineGate().waitUntilHeld(hold);
      await patch("b");
      await patch("c");
    } finally {
      await engineGate().release(hold);
    }
    const revisions = await revisionsOf(created.id);
    const [, second, third, fourth] = revisions;
    const last = await waitForRevision(fourth!.id, ["DEPLOYED"]);
    const middle = await waitForRevision(third!.id);
    expect(middle).toMatchObject({
      status: "SKIPPED",
      statusMessage: expect.stringMatching(/^Superseded by revision 4/),
    });
    expect((await waitForRevision(second!.id)).status).toBe("DEPLOYED");
    expect(last.imageRef).toBe("registry.example/app:c");
    const deployment = await getDeployment(created.id);
    expect(deployment.body).toMatchObject({ status: "READY", active_revision_id: fourth!.id });
  });

  it("rolls back by redeploy: the active revision moves only once the new one is deployed", async () => {
    const created = await createDeployment(tenant.keys.editor);
    const first = await waitForRevision(created.latest_revision_id, ["DEPLOYED"]);
    await patchOk(tenant.keys.editor, created.id, {
      source_revision_config: { image_uri: "registry.example/app:broken" },
    });
    const second = (await revisionsOf(created.id))[1]!;
    await waitForRevision(second.id, ["DEPLOYED"]);

    // Its next deploy waits at the gate until the test has seen the active revision stay.
    const hold = { step: "deploy", name: created.name } as const;
    await engineGate().hold(hold);
    const res = await api(`/v2/deployments/${created.id}/revisions/${first.id}/redeploy`, {
      key: tenant.keys.editor,
      method: "POST",
    });
    expect(res.status, res.text).toBe(200);
    const third = res.body.latest_revision_id;
    // Not deployed yet: still the second.
    expect(res.body.active_revision_id).toBe(second.id);
    await engineGate().waitUntilHeld(hold);
    expect((await getDeployment(created.id)).body.active_revision_id).toBe(second.id);
    await engineGate().release(hold);
    const deployed = await waitForRevision(third, ["DEPLOYED"]);
    expect(deployed.imageRef).toBe("registry.example/app:1");
    expect((await getDeployment(created.id)).body.active_revision_id).toBe(third);
  });
});

describe("POST .../revisions/{id}/interrupt", () => {
  const interrupt = (deploymentId: string, revisionId: string, key = tenant.keys.editor) =>
    api(`/v2/deployments/${deploymentId}/revisions/${revisionId}/interrupt`, {
      key,
      method: "POST",
    });

  it("stops an unfinished revision (200), then 409; 403 for viewers, 404 elsewhere", async () => {
    // Held before its deploy, so it is unfinished whenever the interrupt arrives.
    const hold = { step: "deploy", name: uniqueName("held") } as const;
    await engineGate().hold(hold);
    const created = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      name: hold.name,
    });
    const revisionId = created.latest_revision_id;
    const res = await interrupt(created.id, revisionId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: revisionId,
      status: "INTERRUPTED",
      status_message: "Interrupted by an API key.",
    });
    expect((await interrupt(created.id, revisionId, tenant.keys.viewer)).status).toBe(403);
    const other = await createTenant();
    expect((await interrupt(created.id, revisionId, other.keys.admin)).status).toBe(404);
    expect((await interrupt(created.id, crypto.randomUUID())).status).toBe(404);
    // Released, the worker notices and stops: the revision stays interrupted, nothing deployed.
    await engineGate().release(hold);
    await waitFor(
      () => engineGate().held(),
      (held) => !held.some((h) => h.name === hold.name),
      { what: "the gate to let the deploy go" },
    );

    expect((await testDb().revision.findUniqueOrThrow({ where: { id: revisionId } })).status).toBe(
      "INTERRUPTED",
    );
    expect((await getDeployment(created.id)).body.active_revision_id).toBeNull();

    const again = await interrupt(created.id, revisionId);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`Revision ${revisionId} has already finished (INTERRUPTED).`);
  });

  it("answers 200 while other processes write the revision's log; every line is kept, in turn", async () => {
    const hold = { step: "deploy", name: uniqueName("busy-log") } as const;
    await engineGate().hold(hold);
    const created = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      name: hold.name,
    });
    const revisionId = created.latest_revision_id;
    await engineGate().waitUntilHeld(hold);
    // Writers in this process (as the worker's live log and a lifeline are in theirs), five at
    // once, while the interrupt appends its own line in the server's transaction.
    const rounds = Array.from({ length: 8 }, (_, round) =>
      Array.from({ length: 5 }, (_, i) => `writer line ${round}.${i}`),
    );
    let interrupted: Awaited<ReturnType<typeof interrupt>> | undefined;
    for (const [round, lines] of rounds.entries()) {
      const writes = lines.map((line) => appendLogs(testDb(), revisionId, "build", [line]));
      if (round === 2) interrupted = await interrupt(created.id, revisionId);
      await Promise.all(writes);
    }
    await engineGate().release(hold);
    expect(interrupted?.status, interrupted?.text).toBe(200);
    const logs = await testDb().revisionLog.findMany({
      where: { revisionId },
      orderBy: { seq: "asc" },
    });
    expect(logs.map((l) => l.seq)).toEqual(logs.map((_, i) => i + 1));
    const written = logs.map((l) => l.line);
    for (const line of rounds.flat()) expect(written).toContain(line);
    expect(written).toContain("Interrupted by an API key.");
  });

  it("answers 409 for a deployed revision", async () => {
    const created = await createDeployment(tenant.keys.editor);
    await waitForRevision(created.latest_revision_id, ["DEPLOYED"]);
    expect((await interrupt(created.id, created.latest_revision_id)).status).toBe(409);
  });
});

describe("DELETE /v2/deployments/{id}", () => {
  it("goes AWAITING_DELETE, then 404, and frees the name", async () => {
    const created = await createDeployment(tenant.keys.editor);
    await waitForRevision(created.latest_revision_id, ["DEPLOYED"]);
    const res = await api(`/v2/deployments/${created.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(res.status).toBe(204);
    const during = await getDeployment(created.id);
    // The worker may already be done; while it is not, the deployment shows AWAITING_DELETE.
    if (during.status === 200) expect(during.body.status).toBe("AWAITING_DELETE");
    else expect(during.status).toBe(404);
    await waitFor(
      () => getDeployment(created.id),
      (r) => r.status === 404,
      { what: "deletion" },
    );
    const again = await createDeployment(tenant.keys.editor, { name: created.name });
    expect(again.name).toBe(created.name);
  });

  it("deletes in bulk the same way", async () => {
    const a = await createDeployment(tenant.keys.editor);
    const b = await createDeployment(tenant.keys.editor);
    const res = await api(`/v2/deployments?deployment_ids=${a.id},${b.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(res.status, res.text).toBe(200);
    for (const id of [a.id, b.id]) {
      await waitFor(
        () => getDeployment(id),
        (r) => r.status === 404,
        { what: `deletion of ${id}` },
      );
    }
    expect(await testDb().revision.count({ where: { deploymentId: { in: [a.id, b.id] } } })).toBe(
      0,
    );
  });
});
