import { spawnSync } from "node:child_process";
import { expect } from "vitest";
import { api } from "./http";

// The deploy client's image flow, for tests with Hangar's registry running (registry.test.ts):
// create an image deployment, get a push token, push an OCI layout with skopeo.

/** The deploy client's create: an internal_container deployment whose image comes later. */
export async function createImageDeployment(key: string, name: string) {
  const res = await api("/v2/deployments", {
    key,
    method: "POST",
    body: {
      name,
      source: "internal_container",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string };
}

export async function pushToken(key: string, deploymentId: string) {
  const res = await api(`/v2/deployments/${deploymentId}/push-token`, { key, method: "POST" });
  expect(res.status, res.text).toBe(200);
  return res.body as { token: string; registry_url: string; expires_at: string };
}

/** skopeo copy of an OCI layout (tag v1) to `image`, logged in as the deploy client is. */
export function pushLayout(image: string, token: string, from: { dir: string }) {
  const result = spawnSync(
    "skopeo",
    [
      "--insecure-policy",
      "copy",
      "--dest-tls-verify=false",
      "--dest-creds",
      `oauth2accesstoken:${token}`,
      `oci:${from.dir}:v1`,
      `docker://${image}`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}
