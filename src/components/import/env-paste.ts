/** Parses .env text: KEY=value lines; `export`, comments, blank lines and quotes handled. */
export function parseEnv(text: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[1] === '"' ? quoted[2]!.replace(/\\n/g, "\n") : quoted[2]!;
    else value = value.replace(/\s+#.*$/, "");
    out.push({ name: match[1]!, value });
  }
  return out;
}
