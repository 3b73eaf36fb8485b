import { randomUUID } from "node:crypto";
import pg from "pg";
import { hashPassword } from "../src/server/auth/passwords";

// What the e2e tests find in the app: seeded through the REST API with the bootstrap key, and
// the users that have no API (a viewer, a second workspace) written to the database directly.

export interface E2eState {
  baseUrl: string;
  admin: { email: string; password: string };
  viewer: { email: string; password: string };
  otherWorkspace: string;
  deployments: Record<string, string>;
  tags: Record<string, string>;
}

async function rest<T>(baseUrl: string, key: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`seed ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

function deploymentBody(
  name: string,
  extra: { type?: string; image?: string; tags?: string[] } = {},
) {
  return {
    name,
    source: "internal_container",
    source_config: {
      deployment_type: extra.type ?? "dev",
      custom_url: `https://${name}.example.com`,
    },
    source_revision_config: { image_uri: `registry.example.com/agents/${name}:1.0` },
    secrets: [{ name: "OPENAI_API_KEY", value: "sk-e2e-not-a-real-key" }],
    image_version: extra.image ?? "1.0.0",
    tag_value_ids: extra.tags ?? [],
  };
}

export async function seed(
  baseUrl: string,
  databaseUrl: string,
  key: string,
  admin: E2eState["admin"],
): Promise<E2eState> {
  const tags: Record<string, string> = {};
  for (const [k, values] of [
    ["team", ["platform", "research"]],
    ["env", ["staging"]],
  ] as const) {
    const tagKey = await rest<{ id: string }>(baseUrl, key, "/v2/tag-keys", { key: k });
    for (const value of values) {
      tags[`${k}:${value}`] = (
        await rest<{ id: string }>(baseUrl, key, `/v2/tag-keys/${tagKey.id}/values`, { value })
      ).id;
    }
  }
  const deployments: Record<string, string> = {};
  // Oldest first: the list is newest first, so the named deployments lead page one.
  const specs: [string, Parameters<typeof deploymentBody>[1]][] = [
    ...Array.from(
      { length: 18 },
      (_, i) =>
        [`fleet-${String(i + 1).padStart(2, "0")}`, { type: "dev_free" }] as [string, object],
    ),
    ["delete-me", {}],
    ["billing-bot", { type: "prod" }],
    ["research-assistant", { tags: [tags["team:research"]!] }],
    ["support-agent", { type: "prod", tags: [tags["team:platform"]!], image: "2.1.0" }],
    [
      "support-agent-canary",
      { tags: [tags["team:platform"]!, tags["env:staging"]!], image: "2.2.0-rc1" },
    ],
  ];
  for (const [name, extra] of specs) {
    deployments[name] = (
      await rest<{ id: string }>(baseUrl, key, "/v2/deployments", deploymentBody(name, extra))
    ).id;
  }

  const viewer = { email: "viewer@hangar.test", password: "viewer-password-123" };
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string; organization_id: string }>(
      "SELECT id, organization_id FROM workspaces ORDER BY created_at LIMIT 1",
    );
    const workspace = rows[0]!;
    const viewerId = randomUUID();
    await db.query("INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)", [
      viewerId,
      viewer.email,
      "Vera Viewer",
      await hashPassword(viewer.password),
    ]);
    await db.query(
      "INSERT INTO memberships (id, user_id, workspace_id, role) VALUES ($1, $2, $3, 'viewer')",
      [randomUUID(), viewerId, workspace.id],
    );
    // A second, empty workspace for the admin: the switcher and the "no deployments yet" state.
    const otherWorkspace = "Staging";
    const otherId = randomUUID();
    await db.query("INSERT INTO workspaces (id, organization_id, name) VALUES ($1, $2, $3)", [
      otherId,
      workspace.organization_id,
      otherWorkspace,
    ]);
    await db.query(
      "INSERT INTO memberships (id, user_id, workspace_id, role) SELECT $1, id, $2, 'admin' FROM users WHERE email = $3",
      [randomUUID(), otherId, admin.email],
    );
    return { baseUrl, admin, viewer, otherWorkspace, deployments, tags };
  } finally {
    await db.end();
  }
}
