import { beforeAll, describe, expect, it } from "vitest";
import type { CreateDeploymentInput } from "../../src/schemas/deployments";
import type { Actor } from "../../src/server/auth/actor";
import { createCaller } from "../../src/server/api/root";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { createIntegrationRow, validDeployment, withoutEngineFields } from "../helpers/deployments";
import { waitFor, waitForRevision } from "../helpers/engine";

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

const caller = (actor: Actor | null) => createCaller({ db: testDb(), requestId: "trpc", actor });
const input = (source: CreateDeploymentInput["source"], overrides = {}, integrationId?: string) =>
  validDeployment(source, overrides, { integrationId }) as CreateDeploymentInput;

describe("tRPC deployments", () => {
  it("creates, lists, gets and deletes through the same services", async () => {
    const editor = caller(tenant.actors.editor);
    const created = await editor.deployments.create(
      input("internal_source", { secrets: [{ name: "KEY", value: "plain-value" }] }),
    );
    expect(created).toMatchObject({
      tenant_id: tenant.workspaceId,
      status: "AWAITING_DATABASE",
      secrets: [{ name: "KEY", value: "********" }],
    });

    // Read it back once its revision has ended (the worker changes status, runtime and URL).
    await waitForRevision(created.latest_revision_id!);
    const viewer = caller(tenant.actors.viewer);
    const page = await viewer.deployments.list({ name_contains: created.name });
    expect(page).toMatchObject({ offset: 1, total: 1 });
    // The dashboard's rows are the contract's Deployment plus its latest and active revisions,
    // and the health of an UNKNOWN one with a revision running (none here: a dry run).
    const [{ latest_revision, active_revision, health, ...row }] = page.resources as [
      (typeof page.resources)[number],
    ];
    expect(latest_revision).toMatchObject({ id: created.latest_revision_id, number: 1 });
    expect(active_revision?.id ?? null).toBe(row.active_revision_id);
    expect(health).toBeNull();
    expect([withoutEngineFields(row)]).toEqual([withoutEngineFields(created)]);
    const got = await viewer.deployments.get({ id: created.id });
    expect(got.deployment).toEqual(row);
    expect(got.etag).toMatch(/^W\//);

    await editor.deployments.delete({ id: created.id });
    await waitFor(
      () =>
        viewer.deployments.get({ id: created.id }).then(
          () => "present",
          () => "gone",
        ),
      (state) => state === "gone",
      { what: "the worker to tear the deployment down" },
    );
    await expect(viewer.deployments.get({ id: created.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `Deployment ID ${created.id} not found.`,
    });
  });

  it("bulk deletes, reporting each id", async () => {
    const admin = caller(tenant.actors.admin);
    const a = await admin.deployments.create(input("internal_container"));
    const missing = "00000000-0000-4000-8000-00000000f00d";
    const result = await admin.deployments.bulkDelete({ ids: [a.id, missing] });
    expect(result.results).toEqual([
      { id: a.id, status: 204, detail: null },
      { id: missing, status: 404, detail: `Deployment ID ${missing} not found.` },
    ]);
  });

  it("maps roles, tenancy and rules to tRPC codes", async () => {
    const editor = caller(tenant.actors.editor);
    const mine = await editor.deployments.create(input("internal_template"));
    const viewer = caller(tenant.actors.viewer);
    await expect(viewer.deployments.create(input("internal_container"))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(viewer.deployments.delete({ id: mine.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(viewer.deployments.bulkDelete({ ids: [mine.id] })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });

    const stranger = caller(other.actors.admin);
    await expect(stranger.deployments.get({ id: mine.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(stranger.deployments.delete({ id: mine.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await stranger.deployments.list({ name_contains: mine.name })).resources).toEqual([]);

    const foreignIntegration = await createIntegrationRow(testDb(), other.organizationId);
    await expect(
      editor.deployments.create(input("codehost", {}, foreignIntegration)),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      editor.deployments.create(input("internal_template", { name: mine.name })),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(editor.deployments.create(input("external_container"))).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      editor.deployments.create(input("internal_container", { name: "Not A Label" })),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    await expect(caller(null).deployments.list({})).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("lists the templates", async () => {
    const templates = await caller(tenant.actors.viewer).deployments.templates();
    expect(templates.map((t) => t.id)).toContain("react-agent");
  });
});
