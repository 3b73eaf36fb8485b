import { randomUUID } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { beforeAll, describe, expect, it } from "vitest";
import { checkCredentials } from "../../src/server/auth/credentials";
import { hashParameters, hashPassword } from "../../src/server/auth/passwords";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { signedIn, signInAttempt } from "../helpers/sign-in";

// Issue 28, finding 4: sign-in must not tell which emails have accounts. Not by the answer, and
// not by the work: every check verifies one argon2 hash of the same cost. The work is observed
// through the verification's diagnostics channel (src/server/auth/passwords.ts), on the real
// database; `npm run bench:signin` shows the time it takes.

let tenant: Tenant;
const emails = { known: "", noPassword: "", unknown: "" };

beforeAll(async () => {
  tenant = await createTenant();
  const db = testDb();
  emails.known = `known-${randomUUID()}@example.test`;
  emails.noPassword = `no-password-${randomUUID()}@example.test`;
  emails.unknown = `nobody-${randomUUID()}@example.test`;
  await db.user.update({
    where: { id: tenant.userIds.viewer },
    data: { email: emails.known, passwordHash: await hashPassword("the-right-password") },
  });
  await db.user.update({
    where: { id: tenant.userIds.editor },
    data: { email: emails.noPassword, passwordHash: null },
  });
});

describe("password sign-in", () => {
  it("verifies one hash of the same cost for an unknown email, a passwordless account and a wrong password", async () => {
    const cost = hashParameters(await hashPassword("any"));
    const seen: string[] = [];
    const onVerify = (message: unknown) =>
      seen.push((message as { parameters: string }).parameters);
    subscribe("hangar:password.verify", onVerify);
    try {
      for (const email of [emails.known, emails.noPassword, emails.unknown]) {
        seen.length = 0;
        expect(await checkCredentials(testDb(), email, "a-wrong-guess"), email).toBeNull();
        expect(seen, email).toEqual([cost]);
      }
      seen.length = 0;
      expect(await checkCredentials(testDb(), emails.known, "the-right-password")).toMatchObject({
        id: tenant.userIds.viewer,
      });
      expect(seen).toEqual([cost]);
    } finally {
      unsubscribe("hangar:password.verify", onVerify);
    }
  });

  it("answers an unknown email exactly as a wrong password, over HTTP", async () => {
    const answers = [];
    for (const email of [emails.known, emails.noPassword, emails.unknown]) {
      const res = await signInAttempt(email, "another-wrong-guess");
      expect(signedIn(res)).toBe(false);
      answers.push({ status: res.status, location: res.headers.get("location") });
    }
    expect(answers[0]?.location).toContain("error=CredentialsSignin");
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});
