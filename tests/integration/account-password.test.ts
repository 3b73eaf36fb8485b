import { beforeAll, describe, expect, inject, it } from "vitest";
import { checkCredentials } from "../../src/server/auth/credentials";
import { hashPassword, verifyPassword } from "../../src/server/auth/passwords";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { cookiesOf, signedIn, signInAs, signInAttempt } from "../helpers/sign-in";

// Issue 17: a user changes their own password (current one checked, other sessions ended), and
// an account an admin created with a one-time password must get a new one first. Issue 28: the
// current password cannot be guessed past the per-account sign-in limit.

let tenant: Tenant;
const base = () => inject("baseUrl");

beforeAll(async () => {
  tenant = await createTenant();
});

const me = (cookie: string) => fetch(`${base()}/api/trpc/session.me`, { headers: { cookie } });
const call = (path: string, cookie: string, input: unknown) =>
  fetch(`${base()}/api/trpc/${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(input),
  });
const sessionCookie = (res: Response) =>
  cookiesOf(res)
    .split("; ")
    .filter((c) => c.startsWith("authjs.session-token="))
    .join("; ");

async function signInWith(email: string, password: string): Promise<string> {
  const res = await signInAttempt(email, password);
  expect(signedIn(res), `sign-in of ${email}`).toBe(true);
  return sessionCookie(res);
}

describe("account.changePassword", () => {
  it("a one-time password must be replaced; the change ends the user's other sessions", async () => {
    const admin = await signInAs(tenant.userIds.admin);
    const email = `one-time-${Date.now()}@example.test`;
    const added = await call("members.add", admin, { email, role: "viewer" });
    expect(added.status, await added.clone().text()).toBe(200);
    const oneTime = (await added.json()).result.data.initial_password as string;

    const first = await signInWith(email, oneTime);
    const second = await signInWith(email, oneTime);
    const before = (await (await me(first)).json()).result.data;
    expect(before.user.must_change_password).toBe(true);

    // A wrong current password is a 422 naming the field; nothing changes.
    const wrong = await call("account.changePassword", first, {
      current_password: "not-it-at-all",
      new_password: "a-brand-new-password",
    });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).error.data.issues).toEqual([
      expect.objectContaining({ loc: ["current_password"] }),
    ]);
    // Too short, or the same again: refused by the input schema (tRPC's 400), never a 500.
    for (const new_password of ["short", oneTime]) {
      const bad = await call("account.changePassword", first, {
        current_password: oneTime,
        new_password,
      });
      expect(bad.status, new_password).toBe(400);
    }
    expect((await me(second)).status).toBe(200);

    // Until then the session opens nothing else, through either door.
    const list = await fetch(
      `${base()}/api/trpc/deployments.list?input=${encodeURIComponent(JSON.stringify({}))}`,
      { headers: { cookie: first } },
    );
    expect(list.status).toBe(403);
    expect((await list.json()).error.message).toContain("one-time password");
    const rest = await fetch(`${base()}/v2/deployments`, { headers: { cookie: first } });
    expect(rest.status).toBe(403);
    expect((await rest.json()).detail).toContain("one-time password");

    const changed = await call("account.changePassword", first, {
      current_password: oneTime,
      new_password: "a-brand-new-password",
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect((await changed.json()).result.data).toEqual({ ended_sessions: 1 });

    expect((await me(second)).status).toBe(401);
    const after = await me(first);
    expect(after.status).toBe(200);
    expect((await after.json()).result.data.user.must_change_password).toBe(false);
    const listAfter = await fetch(`${base()}/v2/deployments`, { headers: { cookie: first } });
    expect(listAfter.status).toBe(200);
    expect(signedIn(await signInAttempt(email, oneTime))).toBe(false);
    await signInWith(email, "a-brand-new-password");

    const audit = await testDb().auditEvent.findFirst({
      where: { action: "user.change_password", workspaceId: tenant.workspaceId },
    });
    expect(audit?.data).toEqual({ ended_sessions: 1, one_time: true });
    expect(JSON.stringify(audit)).not.toContain("a-brand-new-password");
  });

  it("wrong current passwords count against the account's sign-in limit (issue 28)", async () => {
    const email = `guessed-${Date.now()}@example.test`;
    const user = await testDb().user.update({
      where: { id: (await createTenant()).userIds.viewer },
      data: { email, passwordHash: await hashPassword("the-real-password") },
    });
    const cookie = await signInWith(email, "the-real-password");
    const change = (current_password: string) =>
      call("account.changePassword", cookie, { current_password, new_password: "taken-over-now" });
    for (let i = 0; i < 10; i++)
      expect((await change(`guess-${i}`)).status, `guess ${i}`).toBe(422);

    const eleventh = await change("the-real-password");
    expect(eleventh.status).toBe(429);
    expect((await eleventh.json()).error).toMatchObject({
      message: "Too many sign-in attempts for this account. Try again in a few minutes.",
      data: { code: "TOO_MANY_REQUESTS" },
    });
    const stored = await testDb().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(stored.passwordHash, "the-real-password")).toBe(true);
    // The same counter as sign-in's: the account is locked there too.
    expect(await checkCredentials(testDb(), email, "the-real-password")).toBe("locked");
  });

  it("an account not made with a one-time password is not asked to change it", async () => {
    const cookie = await signInAs(tenant.userIds.editor);
    const body = (await (await me(cookie)).json()).result.data;
    expect(body.user.must_change_password).toBe(false);
  });
});
