// Text that untrusted code printed (build output, an agent server's logs), made harmless and
// bounded before it is stored or reaches a browser or a terminal.
//
// Harmless: every control character but tab and line feed becomes a visible character of its
// own, one for one (a line keeps its length): C0 controls (NUL..US: ESC among them, so no CSI or
// OSC sequence can clear a screen or set a title; CR, so nothing printed can be overwritten)
// and DEL become their Unicode control pictures (ESC → ␛, BEL → ␇, CR → ␍, DEL → ␡); C1
// controls (U+0080..U+009F, which some terminals take as CSI, OSC...) become U+FFFD. Line feed
// stays: it only starts a new line, and messages Hangar composes span lines (a failed step's
// last lines); lines read from a stream never hold one. Applying it twice changes nothing.
//
// Bounded: a line is at most `max` characters, counted as JavaScript counts them (UTF-16 code
// units; a character beyond the Basic Multilingual Plane, such as an emoji, counts two, and a
// pair is never split). A longer one keeps its start and ends with a mark that says how long it
// was and how much was not kept, within the same `max`:
// `… [cut: 8,388,608 characters, 8,372,273 not kept]`.

/** The most bytes of JSON the lines of one log answer hold (contract sections 6 and 11). */
export const LOG_ANSWER_BYTES = 1024 * 1024;

/** A control character (Unicode's Cc: C0, DEL, C1) other than tab and line feed. */
const CONTROL = /[^\P{Cc}\t\n]/u;
const CONTROLS = new RegExp(CONTROL.source, "gu");

const picture = (char: string): string => {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? "\u2421" : "\ufffd";
};

/** `text` with every control character but tab and line feed made visible (see above). */
export const harmless = (text: string): string =>
  CONTROL.test(text) ? text.replace(CONTROLS, picture) : text;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Where to cut `text` (from `from`, up to `to`) to keep at most `n` characters without splitting
 * a surrogate pair.
 */
export function cutIndex(text: string, n: number, from = 0, to = text.length): number {
  if (n <= 0) return from;
  const end = from + n;
  if (end >= to) return to;
  return isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

const count = (n: number) => n.toLocaleString("en-US");
const cutMark = (length: number, notKept: number) =>
  `… [cut: ${count(length)} characters, ${count(notKept)} not kept]`;

/**
 * A line that was `length` characters long, of which `start` holds at least the first `max`,
 * as at most `max` characters: its start and the cut mark.
 */
export function withCutMark(start: string, length: number, max: number): string {
  if (length <= max) return start;
  // The mark's longest form: "not kept" never has more digits than the length.
  const room = max - cutMark(length, length).length;
  const kept = start.slice(0, cutIndex(start, room));
  return kept + cutMark(length, length - kept.length);
}

/** `line` cut to at most `max` characters, with the cut mark when it was longer. */
export const cutLine = (line: string, max: number): string =>
  line.length > max ? withCutMark(line, line.length, max) : line;

/** A line as it is stored and served: harmless and at most `max` characters. */
export const harmlessLine = (line: string, max: number): string => harmless(cutLine(line, max));

/**
 * The first of `items` whose JSON fits in `budget` bytes (always the first one): a log answer
 * stops adding lines there, and says it was cut so that the client reads on.
 */
export function withinBytes<T>(items: T[], budget = LOG_ANSWER_BYTES): { kept: T[]; cut: boolean } {
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    // The item and the comma after it in the answer's array.
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (bytes > budget && i > 0) return { kept: items.slice(0, i), cut: true };
  }
  return { kept: items, cut: false };
}
