import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cutLine,
  harmless,
  harmlessLine,
  LOG_ANSWER_BYTES,
  withinBytes,
} from "../../src/lib/log-text";

// What untrusted code prints, made harmless before a terminal or a browser sees it: no control
// character but tab and line feed survives (each becomes one visible character), and a line is
// bounded, cut with a mark that says how much was not kept.

const ESC = "\x1b";

describe("harmless", () => {
  it("makes escape sequences visible: a title (OSC), a clear screen (CSI), colours", () => {
    expect(harmless(`${ESC}]0;pwned${"\x07"}`)).toBe("␛]0;pwned␇");
    expect(harmless(`${ESC}]2;title${ESC}\\`)).toBe("␛]2;title␛\\");
    expect(harmless(`${ESC}[2J${ESC}[H${ESC}[3J`)).toBe("␛[2J␛[H␛[3J");
    expect(harmless(`${ESC}[31mred${ESC}[0m`)).toBe("␛[31mred␛[0m");
    expect(harmless(`${ESC}c`)).toBe("␛c");
  });

  it("makes BEL, NUL, backspace, CR, vertical tab, form feed and DEL visible; keeps tab and LF", () => {
    expect(harmless("ring\x07")).toBe("ring␇");
    expect(harmless("nul\x00byte")).toBe("nul␀byte");
    expect(harmless("over\x08\x08written")).toBe("over␈␈written");
    expect(harmless("progress 10%\rprogress 90%")).toBe("progress 10%␍progress 90%");
    expect(harmless("v\x0bf\x0c")).toBe("v␋f␌");
    expect(harmless("Its last lines:\n  boom")).toBe("Its last lines:\n  boom");
    expect(harmless("del\x7f")).toBe("del␡");
    expect(harmless("a\tb")).toBe("a\tb");
  });

  it("replaces C1 controls (8-bit CSI, OSC, NEL) and leaves other text alone", () => {
    expect(harmless("\u009b2J\u009d0;t\u009c\u0085")).toBe("\ufffd2J\ufffd0;t\ufffd\ufffd");
    const text = "plain ASCII, é, 漢字, 😀, ␛ (a picture already), U+00A0:\u00a0";
    expect(harmless(text)).toBe(text);
  });

  it("keeps the length, leaves no control but tab and LF, and changes nothing the second time", () => {
    // Code units around the control ranges, and lone surrogates.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x2ff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 200 }).map((units) => String.fromCharCode(...units)),
        (text) => {
          const once = harmless(text);
          expect(once).toHaveLength(text.length);
          expect(/[^\P{Cc}\t\n]/u.test(once)).toBe(false);
          expect(harmless(once)).toBe(once);
        },
      ),
    );
  });
});

describe("cutLine", () => {
  it("cuts an endless line to the limit with a mark that says how much was not kept", () => {
    const line = cutLine("a".repeat(8_388_608), 16_384);
    expect(line).toHaveLength(16_384);
    const mark = "… [cut: 8,388,608 characters, 8,372,273 not kept]";
    expect(line.endsWith(mark)).toBe(true);
    expect(line.slice(0, -mark.length)).toBe("a".repeat(16_384 - mark.length));
    // 16,335 kept + 8,372,273 not kept = the whole line.
    expect(16_384 - mark.length + 8_372_273).toBe(8_388_608);
  });

  it("leaves a line at the limit alone, and never cuts twice", () => {
    expect(cutLine("b".repeat(300), 300)).toBe("b".repeat(300));
    const cut = cutLine("c".repeat(1000), 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cutLine(cut, 300)).toBe(cut);
  });

  it("never splits a character made of two UTF-16 units", () => {
    const cut = cutLine("😀".repeat(500), 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toMatch(/^(😀)+… \[cut: 1,000 characters, \d+ not kept\]$/);
  });

  it("harmlessLine is both, within the limit", () => {
    const line = harmlessLine(`${ESC}[2J`.repeat(1000), 256);
    expect(line.length).toBeLessThanOrEqual(256);
    expect(line).not.toContain(ESC);
    expect(line).toMatch(/^(␛\[2J)+.*… \[cut: 4,000 characters, [\d,]+ not kept\]$/);
  });
});

describe("withinBytes", () => {
  it("keeps the first items whose JSON fits the budget, at least one", () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ id: i, message: "x".repeat(30_000) }));
    const { kept, cut } = withinBytes(items);
    expect(cut).toBe(true);
    expect(kept.length).toBeGreaterThan(10);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(LOG_ANSWER_BYTES);
    expect(kept).toEqual(items.slice(0, kept.length));
    expect(withinBytes(items.slice(0, 3))).toEqual({ kept: items.slice(0, 3), cut: false });
    const huge = [{ message: "y".repeat(2 * LOG_ANSWER_BYTES) }, { message: "z" }];
    expect(withinBytes(huge)).toEqual({ kept: huge.slice(0, 1), cut: true });
  });
});
