import { describe, expect, it } from "vitest";
import { parseDotenv } from "../../src/lib/dotenv";

const values = (text: string) => parseDotenv(text).entries;

describe("parseDotenv", () => {
  it("reads KEY=value lines, skipping blanks and comments", () => {
    expect(values("A=1\n\n# a comment\n  # indented comment\nB = two words \n")).toEqual([
      { name: "A", value: "1" },
      { name: "B", value: "two words" },
    ]);
  });

  it("drops an `export ` prefix", () => {
    expect(values("export TOKEN=abc\nexport  SPACED=x")).toEqual([
      { name: "TOKEN", value: "abc" },
      { name: "SPACED", value: "x" },
    ]);
  });

  it("strips inline comments from unquoted values only", () => {
    expect(values("A=1 # note\nB=a#b\nC='x # y'\nD=\"p # q\" # r")).toEqual([
      { name: "A", value: "1" },
      { name: "B", value: "a#b" },
      { name: "C", value: "x # y" },
      { name: "D", value: "p # q" },
    ]);
  });

  it("keeps single-quoted values literally and unescapes double-quoted ones", () => {
    expect(values(`A='a\\nb'\nB="a\\nb\\t\\"c\\""\nC="\\\\x"`)).toEqual([
      { name: "A", value: "a\\nb" },
      { name: "B", value: 'a\nb\t"c"' },
      { name: "C", value: "\\x" },
    ]);
  });

  it("reads quoted values over several lines", () => {
    const pem = 'KEY="-----BEGIN-----\nabc\n-----END-----"\nNEXT=1';
    expect(values(pem)).toEqual([
      { name: "KEY", value: "-----BEGIN-----\nabc\n-----END-----" },
      { name: "NEXT", value: "1" },
    ]);
  });

  it("keeps empty values and `=` inside values", () => {
    expect(values("EMPTY=\nQUOTED=''\nURL=postgres://u:p@h/db?a=b")).toEqual([
      { name: "EMPTY", value: "" },
      { name: "QUOTED", value: "" },
      { name: "URL", value: "postgres://u:p@h/db?a=b" },
    ]);
  });

  it("handles Windows line endings", () => {
    expect(values("A=1\r\nB=2\r\n")).toEqual([
      { name: "A", value: "1" },
      { name: "B", value: "2" },
    ]);
  });

  it("reports lines that are not assignments and unclosed quotes", () => {
    expect(parseDotenv('A=1\njust text\nB="open\nC=3')).toEqual({
      entries: [{ name: "A", value: "1" }],
      errors: [
        { line: 2, message: "Expected KEY=value" },
        { line: 3, message: 'Unclosed " quote' },
      ],
    });
  });

  it("leaves name checking to the secret schema", () => {
    expect(values("1BAD=x")).toEqual([{ name: "1BAD", value: "x" }]);
  });
});
