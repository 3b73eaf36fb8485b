import { mkdtemp, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../../src/server/auth/api-keys";
import { verifyPassword } from "../../src/server/auth/passwords";
import { keepAdminPassword } from "../../src/server/db/local-secrets";
import { bootstrap } from "../../src/server/services/bootstrap";
import { testDb } from "../helpers/fixtures";

// Contract 2's bootstrap: no published default password (issue 11, finding 4).

describe("bootstrap admin password", () => {
  it("generates a random password when none is configured; the published default fails", async () => {
    const email = `boot-${Date.now().toString(36)}@example.test`;
    const result = await bootstrap(testDb(), { adminEmail: email, apiKey: generateApiKey().key });
    expect(result?.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const user = await testDb().user.findUniqueOrThrow({ where: { email } });
    expect(user.passwordHash).not.toContain(result!.generatedPassword!);
    expect(await verifyPassword(user.passwordHash!, result!.generatedPassword!)).toBe(true);
    expect(await verifyPassword(user.passwordHash!, "hangar-admin")).toBe(false);
    // A second start keeps the first password and shows nothing again.
    const again = await bootstrap(testDb(), { adminEmail: email, apiKey: generateApiKey().key });
    expect(again?.generatedPassword).toBeNull();
  });

  it("uses HANGAR_ADMIN_PASSWORD when given and generates nothing", async () => {
    const email = `boot-set-${Date.now().toString(36)}@example.test`;
    const result = await bootstrap(testDb(), {
      adminEmail: email,
      adminPassword: "configured-password-1",
      apiKey: generateApiKey().key,
    });
    expect(result?.generatedPassword).toBeNull();
    const user = await testDb().user.findUniqueOrThrow({ where: { email } });
    expect(await verifyPassword(user.passwordHash!, "configured-password-1")).toBe(true);
  });

  it("makes the bootstrap key a service key, and turns an earlier personal one into one", async () => {
    const email = `boot-key-${Date.now().toString(36)}@example.test`;
    const { key } = generateApiKey();
    await bootstrap(testDb(), {
      adminEmail: email,
      adminPassword: "configured-password-1",
      apiKey: key,
    });
    const where = { keyHash: hashApiKey(key) };
    const service = { kind: "service", createdById: null, role: "admin", orgRole: "admin" };
    expect(await testDb().apiKey.findUniqueOrThrow({ where })).toMatchObject(service);
    // Earlier versions made it the admin user's (the migration then made it personal).
    const admin = await testDb().user.findUniqueOrThrow({ where: { email } });
    await testDb().apiKey.update({
      where,
      data: { kind: "personal", createdById: admin.id, role: "viewer", orgRole: "member" },
    });
    await bootstrap(testDb(), { adminEmail: email, apiKey: key });
    expect(await testDb().apiKey.findUniqueOrThrow({ where })).toMatchObject(service);
  });

  it("keeps a generated password in the data folder, readable by its owner only", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-admin-"));
    const file = await keepAdminPassword(dir, "generated-secret");
    expect((await readFile(file, "utf8")).trim()).toBe("generated-secret");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
