import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { createDeployment } from "../helpers/revision-fixtures";
import { signInAs } from "../helpers/sign-in";

// A deployment page that names no deployment of the workspace answers HTTP 404 (with the
// dashboard's not-found page), not a 200 page saying "not found".

let tenant: Tenant;
let cookie: string;
let foreignId: string;

beforeAll(async () => {
  tenant = await createTenant();
  cookie = await signInAs(tenant.userIds.viewer);
  foreignId = (await createDeployment((await createTenant()).keys.editor)).id;
});

const page = (path: string) =>
  fetch(`${inject("baseUrl")}${path}`, { headers: { cookie }, redirect: "manual" });

describe("dashboard deployment pages", () => {
  it("answer 404 for an unknown, malformed or another workspace's deployment", async () => {
    for (const path of [
      `/deployments/${crypto.randomUUID()}`,
      `/deployments/${crypto.randomUUID()}/revisions`,
      `/deployments/${crypto.randomUUID()}/settings`,
      `/deployments/${crypto.randomUUID()}/revisions/${crypto.randomUUID()}`,
      "/deployments/not-an-id",
      `/deployments/${foreignId}`,
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      // The not-found page (rendered by the browser from the payload when the 404 is found
      // before anything streams).
      const body = await res.text();
      expect(body, path).toContain("Deployment not found");
    }
  });

  it("answer 200 for the workspace's own deployment and the list", async () => {
    const mine = await createDeployment(tenant.keys.editor);
    for (const path of [
      `/deployments/${mine.id}`,
      `/deployments/${mine.id}/revisions`,
      "/deployments",
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
    }
  });
});
