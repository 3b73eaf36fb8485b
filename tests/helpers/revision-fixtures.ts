import { expect } from "vitest";
import type { DeploymentSource } from "../../src/generated/prisma/enums";
import {
  asJson,
  emptySourceConfig,
  emptySourceRevisionConfig,
} from "../../src/server/services/deployments/serialize";
import { testDb, type Tenant } from "./fixtures";
import { api, type ApiResponse } from "./http";

// Small helpers for the patch and revision tests.

let counter = 0;
export const uniqueName = (prefix = "dep") =>
  `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

/** Creates a deployment over HTTP (internal_container unless the body says otherwise). */
export async function createDeployment(key: string, body: Record<string, unknown> = {}) {
  const res = await api("/v2/deployments", {
    key,
    method: "POST",
    body: {
      name: uniqueName(),
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: "registry.example/app:1" },
      ...body,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export const createSourceDeployment = (key: string, body: Record<string, unknown> = {}) =>
  createDeployment(key, {
    source: "internal_source",
    source_revision_config: {
      source_tarball_path: "uploads/app-1.tgz",
      graph_config_path: "graph.json",
    },
    ...body,
  });

/**
 * Writes a deployment and its first revision straight to the database, for sources the
 * managed test server does not create over HTTP (external_container) or that need a code host.
 */
export async function insertDeployment(
  tenant: Tenant,
  source: DeploymentSource,
  options: {
    sourceConfig?: Record<string, unknown>;
    sourceRevisionConfig?: Record<string, unknown>;
    secretReferences?: { name: string; secretName: string; secretKey: string }[];
  } = {},
): Promise<string> {
  const db = testDb();
  const sourceConfig = { ...emptySourceConfig, ...options.sourceConfig };
  const sourceRevisionConfig = { ...emptySourceRevisionConfig, ...options.sourceRevisionConfig };
  const row = await db.deployment.create({
    data: {
      workspaceId: tenant.workspaceId,
      name: uniqueName(source.replace("_", "-")),
      source,
      deploymentType: sourceConfig.deployment_type,
      sourceConfig: asJson(sourceConfig),
      sourceRevisionConfig: asJson(sourceRevisionConfig),
      integrationId: sourceConfig.integration_id,
      repoUrl: sourceConfig.repo_url,
      listenerId: sourceConfig.listener_id,
      secretReferences: { create: options.secretReferences ?? [] },
    },
  });
  const revision = await db.revision.create({
    data: {
      deploymentId: row.id,
      number: 1,
      source,
      sourceConfig: asJson(sourceConfig),
      sourceRevisionConfig: asJson(sourceRevisionConfig),
    },
  });
  await db.deployment.update({ where: { id: row.id }, data: { latestRevisionId: revision.id } });
  return row.id;
}

export async function insertIntegration(tenant: Tenant): Promise<string> {
  const row = await testDb().codehostIntegration.create({
    data: {
      organizationId: tenant.organizationId,
      name: uniqueName("host"),
      apiBaseUrl: "https://codehost.example/api/v3",
    },
  });
  return row.id;
}

export const patchDeployment = (
  key: string,
  id: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> => api(`/v2/deployments/${id}`, { key, method: "PATCH", body, headers });

/** Patches and returns the response, failing loudly on anything but 200. */
export async function patchOk(key: string, id: string, body: unknown): Promise<ApiResponse> {
  const res = await patchDeployment(key, id, body);
  expect(res.status, res.text).toBe(200);
  return res;
}

/** The deployment's revisions as stored, oldest first. */
export const revisionsOf = (deploymentId: string) =>
  testDb().revision.findMany({ where: { deploymentId }, orderBy: { number: "asc" } });

/** A fresh tag key with one value; returns the value's id. */
export async function createTagValue(key: string): Promise<string> {
  const tagKey = await api("/v2/tag-keys", {
    key,
    method: "POST",
    body: { key: uniqueName("key") },
  });
  const value = await api(`/v2/tag-keys/${tagKey.body.id}/values`, {
    key,
    method: "POST",
    body: { value: "v" },
  });
  expect(value.status, value.text).toBe(201);
  return value.body.id;
}
