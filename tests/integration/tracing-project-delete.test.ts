import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { beforeAll, describe, expect, it } from "vitest";
import { PROJECT_DELETE_BATCH } from "../../src/server/services/tracing/project-delete";
import { ensureRunPartitions } from "../../src/server/services/tracing/partitions";
import { createDeploymentOverHttp, uniqueName, validDeployment } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sdkRun, tracingUrl } from "../helpers/tracing";

// DELETE /api/v1/sessions/{id}: a project goes with its runs (every day partition, in batches)
// and its feedback; only in the caller's workspace, only for editors, never a deployment's own.

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

const DAY = 24 * 3600 * 1000;

/** A project of `tenant` holding runs of today and of three days ago, with feedback. */
async function projectWithRuns(name = uniqueName("doomed")) {
  const now = new Date();
  const root = sdkRun({ session_name: name, name: "root" }, undefined, now);
  const child = sdkRun({ session_name: name, name: "child" }, root, now);
  const older = sdkRun({ session_name: name, name: "older" }, undefined, new Date(+now - 3 * DAY));
  const batch = await api("/api/v1/runs/batch", {
    key: tenant.keys.editor,
    method: "POST",
    body: { post: [root, child, older] },
  });
  expect(batch.status).toBe(202);
  const project = (await api(`/api/v1/sessions?name=${name}`, { key: tenant.keys.viewer })).body[0];
  for (const body of [
    { run_id: root.id, key: "on-run", score: 1 },
    { session_id: project.id, key: "on-project", score: 0 },
  ]) {
    const made = await api("/api/v1/feedback", { key: tenant.keys.editor, method: "POST", body });
    expect(made.status).toBe(200);
  }
  return { project, runIds: [root.id, child.id, older.id] };
}

async function countRuns(where: string, ...params: unknown[]) {
  const [row] = await testDb().$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM tracing_runs WHERE ${where}`,
    ...params,
  );
  return row!.n;
}

describe("DELETE /api/v1/sessions/{project_id}", () => {
  it("deletes the project, its runs in every partition and its feedback; other projects stay", async () => {
    const doomed = await projectWithRuns();
    const kept = await projectWithRuns();
    const res = await api(`/api/v1/sessions/${doomed.project.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    // The spec's deletion row (section 8.2) applies to the real path.
    expect(res.headers.get("ratelimit-policy")).toBe('"deletion-api-key";q=10;w=60');

    const gone = await api(`/api/v1/sessions/${doomed.project.id}`, { key: tenant.keys.viewer });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({
      detail: `Project ${doomed.project.id} not found`,
      code: "not_found",
    });
    expect(await countRuns("id = ANY($1::uuid[])", doomed.runIds)).toBe(0);
    for (const id of doomed.runIds)
      expect((await api(`/api/v1/runs/${id}`, { key: tenant.keys.editor })).status).toBe(404);
    const feedback = await testDb().tracingFeedback.count({
      where: {
        workspaceId: tenant.workspaceId,
        OR: [{ projectId: doomed.project.id }, { runId: { in: doomed.runIds } }],
      },
    });
    expect(feedback).toBe(0);

    expect(await countRuns("id = ANY($1::uuid[])", kept.runIds)).toBe(3);
    expect(
      (await api(`/api/v1/sessions/${kept.project.id}`, { key: tenant.keys.viewer })).status,
    ).toBe(200);
    const audit = await testDb().auditEvent.findFirst({
      where: { targetId: doomed.project.id, action: "tracing_project.delete" },
    });
    expect(audit).toMatchObject({ workspaceId: tenant.workspaceId, data: { runs: 3 } });

    const again = await api(`/api/v1/sessions/${doomed.project.id}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(again.status).toBe(404);
  });

  it("deletes a project larger than one batch", async () => {
    const db = testDb();
    const project = await api("/api/v1/sessions", {
      key: tenant.keys.editor,
      method: "POST",
      body: { name: uniqueName("large") },
    });
    expect(project.status).toBe(201);
    const now = Date.now();
    const days = [new Date(now), new Date(now - DAY), new Date(now - 2 * DAY)];
    await ensureRunPartitions(db, days);
    const total = 2 * PROJECT_DELETE_BATCH + 17;
    // Straight into the table: ingesting 10,000 runs over HTTP would test ingest, not deletion.
    await db.$executeRawUnsafe(
      `INSERT INTO tracing_runs (id, sort_time, workspace_id, project_id, name)
       SELECT gen_random_uuid(), $1::timestamptz - (i % 3) * interval '1 day' - i * interval '1 ms',
              $2::uuid, $3::uuid, 'bulk'
         FROM generate_series(1, $4::int) AS i`,
      days[0]!.toISOString(),
      tenant.workspaceId,
      project.body.id,
      total,
    );
    expect(await countRuns("project_id = $1::uuid", project.body.id)).toBe(total);
    const res = await api(`/api/v1/sessions/${project.body.id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(res.status).toBe(204);
    expect(await countRuns("project_id = $1::uuid", project.body.id)).toBe(0);
  });

  it("refuses viewers (403), another workspace's project and unknown ids (404)", async () => {
    const { project, runIds } = await projectWithRuns();
    const viewer = await api(`/api/v1/sessions/${project.id}`, {
      key: tenant.keys.viewer,
      method: "DELETE",
    });
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe("forbidden");
    const theirs = await api(`/api/v1/sessions/${project.id}`, {
      key: other.keys.editor,
      method: "DELETE",
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: `Project ${project.id} not found`, code: "not_found" });
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const res = await api(`/api/v1/sessions/${id}`, { key: tenant.keys.admin, method: "DELETE" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Project ${id} not found`, code: "not_found" });
    }
    const anonymous = await api(`/api/v1/sessions/${project.id}`, { method: "DELETE" });
    expect(anonymous.status).toBe(401);
    expect(await countRuns("id = ANY($1::uuid[])", runIds)).toBe(3);
  });

  it("refuses a deployment's own project (409) until the deployment is gone", async () => {
    const deployment = await createDeploymentOverHttp(
      tenant.keys.editor,
      // Awaiting its image: no revision, so no worker step races the row's removal below.
      validDeployment("internal_container", { source_revision_config: { image_uri: null } }),
    );
    const project = await testDb().tracingProject.findUniqueOrThrow({
      where: { deploymentId: deployment.id },
    });
    const refused = await api(`/api/v1/sessions/${project.id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("conflict");
    expect(refused.body.detail).toContain(`deployment ${deployment.name} (${deployment.id})`);
    expect(refused.body.detail).toContain("delete the deployment first");
    // The worker removes the row once the runtime is torn down: the same end, without the wait.
    await testDb().deployment.delete({ where: { id: deployment.id } });
    const res = await api(`/api/v1/sessions/${project.id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(res.status).toBe(204);
  });

  it("is what the langsmith SDK's deleteProject calls, by name or by id", async () => {
    const client = new Client({ apiUrl: tracingUrl(), apiKey: other.keys.editor });
    const byName = uniqueName("sdk-delete");
    await client.createProject({ projectName: byName });
    await client.deleteProject({ projectName: byName });
    await expect(client.readProject({ projectName: byName })).rejects.toThrow(/not found|404/i);
    const byId = await client.createProject({ projectName: uniqueName("sdk-delete") });
    await client.deleteProject({ projectId: byId.id });
    await expect(client.readProject({ projectId: byId.id })).rejects.toThrow(/not found|404/i);
    // Another workspace's key cannot delete tenant's project.
    const { project } = await projectWithRuns();
    await expect(client.deleteProject({ projectId: project.id })).rejects.toThrow(/404|not found/i);
  });
});
