import type { Page } from "@playwright/test";
import pg from "pg";
import { expect, state } from "./fixtures";

// Deployments the editing specs own, created through REST with the signed-in admin's session.

export async function createDeployment(
  page: Page,
  name: string,
  extra: { secrets?: { name: string; value: string }[]; resource_spec?: object } = {},
): Promise<string> {
  const res = await page.request.post("/v2/deployments", {
    data: {
      name,
      source: "internal_container",
      source_config: {
        custom_url: `https://${name}.example.com`,
        resource_spec: extra.resource_spec ?? { cpu: 0.5, memory_mb: 512 },
      },
      source_revision_config: { image_uri: `registry.example.com/agents/${name}:1.0` },
      secrets: extra.secrets ?? [],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

export async function patchDeployment(page: Page, id: string, body: object) {
  const res = await page.request.patch(`/v2/deployments/${id}`, { data: body });
  expect(res.status(), await res.text()).toBe(200);
}

/** Stands in for the revision engine, which moves revisions through their statuses. */
export async function setRevisionStatus(deploymentId: string, number: number, status: string) {
  const db = new pg.Client({ connectionString: state.databaseUrl });
  await db.connect();
  try {
    await db.query(
      "UPDATE revisions SET status = $1, updated_at = now() WHERE deployment_id = $2 AND number = $3",
      [status, deploymentId, number],
    );
  } finally {
    await db.end();
  }
}

export const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });
