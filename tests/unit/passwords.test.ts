import { describe, expect, it } from "vitest";
import {
  DUMMY_PASSWORD_HASH,
  hashParameters,
  hashPassword,
  verifyPassword,
} from "../../src/server/auth/passwords";

// The dummy hash that unknown emails are checked against must cost what a real one costs: if
// the library's defaults change, a hash made now has other parameters and this fails.

describe("the dummy password hash", () => {
  it("has the parameters of a hash made now", async () => {
    expect(hashParameters(DUMMY_PASSWORD_HASH)).toBe(hashParameters(await hashPassword("x")));
    expect(hashParameters(DUMMY_PASSWORD_HASH)).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
  });

  it("never lets anyone in without a stored hash", async () => {
    for (const stored of [null, undefined, ""])
      expect(await verifyPassword(stored, "anything")).toBe(false);
    const stored = await hashPassword("right");
    expect(await verifyPassword(stored, "right")).toBe(true);
    expect(await verifyPassword(stored, "wrong")).toBe(false);
  });
});
