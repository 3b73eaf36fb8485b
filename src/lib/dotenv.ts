// A small `.env` parser for pasting secrets: KEY=value lines, `#` comments, an optional
// `export ` prefix, single quotes (literal) and double quotes (escapes, may span lines).

export interface DotenvEntry {
  name: string;
  value: string;
}

export interface DotenvResult {
  entries: DotenvEntry[];
  /** Lines that are not `KEY=value`, by 1-based line number. */
  errors: { line: number; message: string }[];
}

const ASSIGNMENT = /^\s*(?:export\s+)?([^=\s#]+)\s*=\s*(.*)$/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

export function parseDotenv(text: string): DotenvResult {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const entries: DotenvEntry[] = [];
  const errors: DotenvResult["errors"] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const match = ASSIGNMENT.exec(line);
    if (!match) {
      errors.push({ line: i + 1, message: "Expected KEY=value" });
      continue;
    }
    const name = match[1]!;
    const rest = match[2]!;
    const quote = rest[0];
    if (quote === "'" || quote === '"') {
      // The value runs to the matching quote, which may be on a later line.
      let body = rest.slice(1);
      const start = i;
      let end = closingQuote(body, quote);
      while (end < 0 && i + 1 < lines.length) {
        body += "\n" + lines[++i];
        end = closingQuote(body, quote);
      }
      if (end < 0) {
        errors.push({ line: start + 1, message: `Unclosed ${quote} quote` });
        continue;
      }
      const raw = body.slice(0, end);
      entries.push({ name, value: quote === '"' ? unescape(raw) : raw });
      continue;
    }
    // Unquoted: an inline comment starts at a `#` after whitespace.
    entries.push({ name, value: rest.replace(/\s+#.*$/, "").trim() });
  }
  return { entries, errors };
}

function closingQuote(text: string, quote: string): number {
  for (let i = 0; i < text.length; i++) {
    if (quote === '"' && text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (whole, char: string) => ESCAPES[char] ?? whole);
}
