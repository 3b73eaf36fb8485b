import { gateClient } from "../testing/gate";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

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

/** The engine runs revisions in the background: wait (through REST) for one to reach a status. */
export async function waitForRevision(page: Page, id: string, number: number, status: string) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/v2/deployments/${id}/revisions?limit=100`);
        const list = (await res.json()) as { resources: { number: number; status: string }[] };
        return list.resources.find((r) => r.number === number)?.status;
      },
      { timeout: 30_000, message: `revision #${number} of ${id} reaches ${status}` },
    )
    .toBe(status);
}

/** The id of the deployment's latest revision. */
export async function latestRevisionId(page: Page, id: string): Promise<string> {
  const res = await page.request.get(`/v2/deployments/${id}`);
  return ((await res.json()) as { latest_revision_id: string }).latest_revision_id;
}

/** The engine's gate: `hold` a deployment's deploy step to see its revision mid-flight. */
export function engineGate(name: string) {
  const gate = gateClient(process.env.E2E_GATE_URL!);
  const hold = { step: "deploy", name } as const;
  return { hold: () => gate.hold(hold), release: () => gate.release(hold) };
}

export const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });
