import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/schemas/limits";
import { findBadText } from "../../src/server/input-text";

// Issue 11, finding 8: input the database or our parsers cannot take is found without recursion.

const nested = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth));

describe("findBadText", () => {
  it("passes ordinary input, including valid surrogate pairs", () => {
    expect(findBadText({ a: ["b", { c: "😀 ok" }], n: 1, t: true, z: null })).toBeNull();
    expect(findBadText(nested(MAX_JSON_DEPTH))).toBeNull();
  });

  it("finds 3,000 levels of nesting without overflowing the stack (was a 500)", () => {
    expect(findBadText({ a: nested(3000) })).toMatchObject({
      type: "too_deep",
      loc: ["a", ...Array(MAX_JSON_DEPTH - 1).fill(0)],
    });
    expect(findBadText(nested(100_000))?.type).toBe("too_deep");
  });

  it("finds lone surrogates in values and keys (PostgreSQL refused them: a 500)", () => {
    expect(findBadText({ install_command: "echo \ud800" })).toMatchObject({
      type: "string_unicode",
      loc: ["install_command"],
    });
    expect(findBadText({ x: ["ok", "\udc00 low"] })).toMatchObject({ loc: ["x", 1] });
    expect(findBadText({ ["k\ud83d"]: 1 })?.type).toBe("string_unicode");
  });

  it("finds NUL characters as before", () => {
    expect(findBadText({ a: { b: "x\u0000" } })).toMatchObject({
      type: "string_nul",
      loc: ["a", "b"],
    });
  });
});
