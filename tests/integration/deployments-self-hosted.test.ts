import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DeploymentSource } from "../../src/schemas/deployments";
import {
  bodyWithField,
  createIntegrationRow,
  disallowedFieldCases,
  fieldSamples,
  requiredFieldCases,
  validDeployment,
  withoutEngineFields,
} from "../helpers/deployments";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { startServer, type RunningServer } from "../../testing/server";

// A second server on the same database, in HANGAR_MODE=self_hosted.

let server: RunningServer;
let tenant: Tenant;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  integrationId = await createIntegrationRow(testDb(), tenant.organizationId);
  server = await startServer({ ...inject("testEnv"), HANGAR_MODE: "self_hosted" });
});
afterAll(() => server?.stop());

const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(path, { key: tenant.keys.editor, baseUrl: server.url, ...init });
const post = (body: unknown) => call("/v2/deployments", { method: "POST", body });
const managed: DeploymentSource[] = [
  "codehost",
  "internal_container",
  "internal_source",
  "internal_template",
];

describe("POST /v2/deployments (self_hosted mode)", () => {
  it("creates external_container with secret references and a listener", async () => {
    const created = await api("/v2/listeners", {
      key: tenant.keys.admin,
      baseUrl: server.url,
      method: "POST",
      body: {
        compute_type: "k8s",
        compute_id: "sh-cluster",
        compute_config: { k8s_namespaces: ["agents"] },
      },
    });
    expect(created.status, created.text).toBe(201);
    const listener = {
      listener_id: created.body.id,
      listener_config: { k8s_namespace: "agents" },
    };
    const res = await post(
      validDeployment("external_container", {
        source_config: listener,
        secret_references: fieldSamples.secret_references,
        secrets: [{ name: "LOCAL", value: "local-plaintext" }],
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain("local-plaintext");
    expect(res.body).toMatchObject({
      source: "external_container",
      status: "AWAITING_DATABASE",
      active_revision_id: null,
      secret_references: fieldSamples.secret_references,
      secrets: [{ name: "LOCAL", value: "********" }],
    });
    expect(res.body.source_config).toMatchObject(listener);

    const listed = await call(`/v2/deployments?remote_reconciled=true`);
    expect(listed.body.resources.map((r: { id: string }) => r.id)).toEqual([res.body.id]);
    // Read it back once its revision is handed to the listener (which applies it from there).
    await waitForRevision(res.body.latest_revision_id, ["DEPLOYING"]);
    const got = await call(`/v2/deployments/${res.body.id}`);
    expect(withoutEngineFields(got.body)).toEqual(withoutEngineFields(res.body));
    expect((await call(`/v2/deployments/${res.body.id}`, { method: "DELETE" })).status).toBe(204);
  });

  it("refuses a listener that is not the workspace's (404)", async () => {
    const res = await post(
      validDeployment("external_container", {
        source_config: { listener_id: fieldSamples["source_config.listener_id"] },
      }),
    );
    expect(res.status, res.text).toBe(404);
    expect(res.body.detail).toContain("Listener");
  });

  it("creates external_container without a listener and with no references", async () => {
    const res = await post(validDeployment("external_container"));
    expect(res.status).toBe(201);
    expect(res.body.secret_references).toEqual([]);
    expect(res.body.source_config.listener_id).toBeNull();
  });

  it.each(managed)("refuses %s, naming the mode", async (source) => {
    const res = await post(validDeployment(source, {}, { integrationId }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("self_hosted");
  });

  it.each(requiredFieldCases(["external_container"]))("%s without %s -> 400", async (s, f) => {
    const res = await post(bodyWithField(s, f, undefined));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(f);
  });

  it.each(disallowedFieldCases(["external_container"]))("%s with %s -> 400", async (s, f) => {
    const res = await post(bodyWithField(s, f, fieldSamples[f]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(f);
  });
});
