import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import { createIntegration } from "../helpers/codehost";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { createPreviewParent, webhookUrl } from "../helpers/previews";

// previews.webhook: what the Previews card says beside its switch about the pull-request
// webhook: no secret (deliveries refused), none arrived yet, or receiving with the last one's
// time, from the deliveries the webhook records; another workspace's deployment is not found.

const SECRET = "whsec-previews-webhook-0123456789";
let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  host = await startCodehostServer();
});
afterAll(() => host?.stop());

const trpc = (t: Tenant) =>
  createCaller({ db: testDb(), requestId: "trpc", actor: t.actors.viewer }).previews;

describe("previews.webhook", () => {
  it("says no delivery yet, then receiving with the last pull_request delivery's time", async () => {
    const integrationId = await createIntegration(tenant.keys.admin, host, SECRET);
    const parent = await createPreviewParent(tenant.keys.admin, host, integrationId);
    expect(await trpc(tenant).webhook({ deploymentId: parent.id })).toEqual({
      state: "no_deliveries",
      last_delivery_at: null,
    });
    host.pulls.addWebhook(webhookUrl(inject("baseUrl"), integrationId), SECRET);
    const before = Date.now();
    const { deliveries } = await host.pulls.open({ repo: "acme/support-bot", title: "Hello" });
    expect(deliveries[0]!.status).toBe(202);
    const read = await trpc(tenant).webhook({ deploymentId: parent.id });
    expect(read.state).toBe("receiving");
    expect(Date.parse(read.last_delivery_at!)).toBeGreaterThanOrEqual(before - 1000);

    await expect(trpc(other).webhook({ deploymentId: parent.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("says deliveries are refused when the integration has no webhook secret", async () => {
    const integrationId = await createIntegration(tenant.keys.admin, host);
    const parent = await createPreviewParent(tenant.keys.admin, host, integrationId);
    expect(await trpc(tenant).webhook({ deploymentId: parent.id })).toEqual({
      state: "no_secret",
      last_delivery_at: null,
    });
  });
});
