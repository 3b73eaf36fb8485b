import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { signInAs, signOut } from "../helpers/sign-in";

// Issue 11, finding 9: server-side sessions (sign-out and revocation end a cookie at once), tRPC
// mutations refuse other sites as REST does, and a tRPC batch counts each call and is capped.

let tenant: Tenant;
const base = () => inject("baseUrl");

beforeAll(async () => {
  tenant = await createTenant();
});

const me = (cookie: string) => fetch(`${base()}/api/trpc/session.me`, { headers: { cookie } });

function mutation(
  path: string,
  cookie: string,
  input: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${base()}/api/trpc/${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", ...headers },
    body: JSON.stringify(input),
  });
}

describe("dashboard sessions", () => {
  it("sign-out ends the session server-side: the saved cookie stops working", async () => {
    const cookie = await signInAs(tenant.userIds.editor);
    expect((await me(cookie)).status).toBe(200);
    const out = await signOut(cookie);
    expect(out.status).toBe(302);
    // The cookie saved before signing out, replayed:
    expect((await me(cookie)).status).toBe(401);
  });

  it("lists the user's sessions and revokes another browser's", async () => {
    const first = await signInAs(tenant.userIds.viewer);
    const second = await signInAs(tenant.userIds.viewer);
    const list = await fetch(`${base()}/api/trpc/session.list`, { headers: { cookie: first } });
    expect(list.status).toBe(200);
    const sessions = (await list.json()).result.data as { id: string; current: boolean }[];
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const current = sessions.filter((s) => s.current);
    expect(current).toHaveLength(1);
    const other = sessions.find((s) => !s.current)!;

    const revoked = await mutation("session.revoke", first, { id: other.id });
    expect(revoked.status, await revoked.text()).toBe(200);
    expect((await me(second)).status).toBe(401);
    expect((await me(first)).status).toBe(200);
    // Someone else's session is not found.
    const stranger = await signInAs(tenant.userIds.admin);
    const foreign = await mutation("session.revoke", stranger, { id: current[0]!.id });
    expect(foreign.status).toBe(404);
    expect((await me(first)).status).toBe(200);
  });
});

describe("tRPC door", () => {
  it("refuses mutations from other sites, or with an Origin that is not a URL, like REST", async () => {
    const cookie = await signInAs(tenant.userIds.admin);
    const input = { email: `csrf-${Date.now()}@example.test`, role: "viewer" };
    for (const headers of <Record<string, string>[]>[
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://[not a url" },
      { "sec-fetch-site": "cross-site" },
    ]) {
      const res = await mutation("members.add", cookie, input, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    const same = await mutation("members.add", cookie, input, { origin: base() });
    expect(same.status, await same.text()).toBe(200);
  });

  it("refuses a mutation body over 1 MiB with 413", async () => {
    const cookie = await signInAs(tenant.userIds.admin);
    const res = await mutation("members.add", cookie, { email: "x".repeat(1_100_000) });
    expect(res.status).toBe(413);
  });

  it("counts every call of a batch against the limiter and caps batches at 20", async () => {
    const cookie = await signInAs(tenant.userIds.editor);
    const remaining = (res: Response) => Number(res.headers.get("x-ratelimit-remaining"));
    const before = remaining(await me(cookie));
    const batch = (n: number) => {
      const paths = Array.from({ length: n }, () => "session.me").join(",");
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]));
      return fetch(
        `${base()}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
        { headers: { cookie } },
      );
    };
    const twenty = await batch(20);
    expect(twenty.status).toBe(200);
    expect(before - remaining(twenty)).toBe(20);
    expect((await batch(21)).status).toBe(400);
  });
});
