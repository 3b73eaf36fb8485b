import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { hashApiKey } from "../../src/server/auth/api-keys";
import { verifyPassword } from "../../src/server/auth/passwords";
import { testDb } from "../helpers/fixtures";
import { api } from "../helpers/http";

const run = promisify(execFile);

/** Runs `npm run hangar -- <args> --json` as a child process against the run's database. */
async function hangar(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout } = await run(
      path.resolve("node_modules/.bin/tsx"),
      ["scripts/hangar.ts", ...args, "--json"],
      { env: { ...process.env, DATABASE_URL: inject("testEnv").DATABASE_URL!, ...env } },
    );
    return { code: 0, json: JSON.parse(stdout), stderr: "" };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, json: undefined, stderr: failed.stderr };
  }
}

const tag = `${process.pid}-${Date.now().toString(36)}`;
let organizationId: string;
let workspaceId: string;

beforeAll(async () => {
  const org = await hangar(["org", "create", "--name", `cli org ${tag}`]);
  expect(org.code).toBe(0);
  organizationId = org.json.id;
  const ws = await hangar(["workspace", "create", "--org", organizationId, "--name", "cli ws"]);
  expect(ws.code).toBe(0);
  workspaceId = ws.json.id;
});

// Each command is a fresh process (~2-4 s on a busy machine), so allow more than the default.
describe("npm run hangar", { timeout: 180_000 }, () => {
  it("creates and lists organizations and workspaces", async () => {
    const orgs = await hangar(["org", "list"]);
    expect(orgs.json).toContainEqual(expect.objectContaining({ id: organizationId }));
    const list = await hangar(["workspace", "list", "--org", organizationId]);
    expect(list.json).toEqual([
      expect.objectContaining({ id: workspaceId, organization_id: organizationId, name: "cli ws" }),
    ]);
  });

  it("creates users and adds them as members", async () => {
    const email = `cli-${tag}@example.test`;
    const user = await hangar(["user", "create", "--email", email], {
      HANGAR_NEW_USER_PASSWORD: "from-the-environment",
    });
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ email });
    const stored = await testDb().user.findUniqueOrThrow({ where: { id: user.json.id } });
    expect(await verifyPassword(stored.passwordHash!, "from-the-environment")).toBe(true);

    const dup = await hangar(["user", "create", "--email", email, "--password", "another-one"]);
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stderr)).toMatchObject({ code: "conflict" });

    const added = await hangar([
      "member",
      "add",
      "--workspace",
      workspaceId,
      "--email",
      email,
      "--role",
      "admin",
    ]);
    expect(added.json).toMatchObject({ created_user: false, member: { email, role: "admin" } });
    const events = await testDb().auditEvent.findMany({
      where: { workspaceId },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => e.action)).toEqual(["workspace.create", "member.add"]);
    expect(events.every((e) => e.requestId?.startsWith("cli-") && !e.actorUserId)).toBe(true);
  });

  it("creates a workspace key that works against the server until revoked", async () => {
    const created = await hangar([
      "apikey",
      "create",
      "--workspace",
      workspaceId,
      "--role",
      "editor",
      "--name",
      "ci",
    ]);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ kind: "service", created_by: null });
    const key: string = created.json.key;
    expect(key).toMatch(/^hgr_/);
    expect((await api("/v2/tag-keys", { key })).status).toBe(200);
    const write = await api("/v2/tag-keys", { key, method: "POST", body: { key: "from-cli" } });
    expect(write.status).toBe(201);

    const list = await hangar(["apikey", "list", "--workspace", workspaceId]);
    expect(list.json).toEqual([expect.objectContaining({ id: created.json.id, role: "editor" })]);
    expect(JSON.stringify(list.json)).not.toContain(key);
    expect(JSON.stringify(list.json)).not.toContain(hashApiKey(key));

    const revoked = await hangar(["apikey", "revoke", "--id", created.json.id]);
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    expect((await api("/v2/tag-keys", { key })).status).toBe(401);
  });

  it("sets organization roles: --org-role on keys and members", async () => {
    const provider = (n: string) => ({
      provider_id: `cli-${tag}-${n}`,
      name: "CLI",
      client_id: "c",
      client_secret: "s3cret",
      auth_url: "https://login.example.com/a",
      token_url: "https://login.example.com/t",
    });
    const plain = await hangar([
      "apikey",
      "create",
      "--workspace",
      workspaceId,
      "--role",
      "admin",
      "--name",
      "ws-admin",
    ]);
    expect(plain.json).toMatchObject({ role: "admin", org_role: "member" });
    const refused = await api("/v2/auth/providers", {
      key: plain.json.key,
      method: "POST",
      body: provider("a"),
    });
    expect(refused.status).toBe(403);
    const orgAdmin = await hangar([
      "apikey",
      "create",
      "--workspace",
      workspaceId,
      "--role",
      "editor",
      "--org-role",
      "admin",
      "--name",
      "org-admin",
    ]);
    expect(orgAdmin.json).toMatchObject({ role: "editor", org_role: "admin" });
    const created = await api("/v2/auth/providers", {
      key: orgAdmin.json.key,
      method: "POST",
      body: provider("b"),
    });
    expect(created.status, created.text).toBe(201);

    const email = `cli-org-${tag}@example.test`;
    const added = await hangar([
      "member",
      "add",
      "--workspace",
      workspaceId,
      "--email",
      email,
      "--role",
      "viewer",
      "--org-role",
      "admin",
      "--password",
      "a-long-password",
    ]);
    expect(added.json.member).toMatchObject({ email, role: "viewer", org_role: "admin" });
    const demote = () =>
      hangar([
        "member",
        "org-role",
        "--workspace",
        workspaceId,
        "--user",
        added.json.member.user_id,
        "--org-role",
        "member",
      ]);
    // The organization's only admin stays one until there is another (issue 28).
    const lastAdmin = await demote();
    expect(lastAdmin.code).toBe(1);
    expect(JSON.parse(lastAdmin.stderr)).toEqual({
      detail:
        "An organization needs at least one admin or owner: make another member organization admin first.",
      code: "bad_request",
    });
    const second = await hangar([
      "member",
      "add",
      "--workspace",
      workspaceId,
      "--email",
      `cli-org2-${tag}@example.test`,
      "--role",
      "viewer",
      "--org-role",
      "admin",
    ]);
    expect(second.json.member).toMatchObject({ org_role: "admin" });
    const demoted = await demote();
    expect(demoted.json).toMatchObject({ email, org_role: "member", api_keys_narrowed: 0 });
    const bad = await hangar([
      "member",
      "org-role",
      "--workspace",
      workspaceId,
      "--user",
      added.json.member.user_id,
      "--org-role",
      "boss",
    ]);
    expect(bad.code).toBe(1);
  });

  it("creates organization-scoped keys that need X-Tenant-Id", async () => {
    const created = await hangar([
      "apikey",
      "create",
      "--org",
      organizationId,
      "--role",
      "viewer",
      "--name",
      "org",
    ]);
    expect(created.json).toMatchObject({ workspace_id: null, role: "viewer" });
    const key: string = created.json.key;
    expect((await api("/v2/tag-keys", { key })).status).toBe(403);
    const ok = await api("/v2/tag-keys", { key, headers: { "x-tenant-id": workspaceId } });
    expect(ok.status).toBe(200);

    const list = await hangar(["apikey", "list", "--org", organizationId]);
    expect(list.json.map((k: { id: string }) => k.id)).toEqual([created.json.id]);
    await hangar(["apikey", "revoke", "--id", created.json.id]);
    expect(
      (await api("/v2/tag-keys", { key, headers: { "x-tenant-id": workspaceId } })).status,
    ).toBe(401);
  });

  it("refuses bad arguments and unknown ids", async () => {
    const [badId, missing, neither, noPassword] = await Promise.all([
      hangar(["workspace", "create", "--org", "nope", "--name", "x"]),
      hangar(["apikey", "list", "--workspace", organizationId]),
      hangar(["apikey", "create", "--role", "admin", "--name", "x"]),
      hangar(["user", "create", "--email", `nopw-${tag}@example.test`]),
    ]);
    expect(badId.code).not.toBe(0);
    expect(badId.stderr).toMatch(/--org/);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toMatchObject({ code: "not_found" });
    expect(neither.code).toBe(1);
    expect(neither.stderr).toMatch(/exactly one of --workspace/);
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toMatch(/HANGAR_NEW_USER_PASSWORD/);
    expect(await testDb().user.count({ where: { email: `nopw-${tag}@example.test` } })).toBe(0);
  });
});
