import { gzipSync } from "node:zlib";
import { Header } from "tar";

// Gzipped tars written entry by entry, so tests (and the local code host's tarballs) can also
// make the malicious ones (`../` paths, links out of the tree) a real tar tool would refuse.

export type TarEntry =
  | { path: string; content: string | Buffer; type?: "File"; mode?: number }
  | { path: string; type: "Directory" | "FIFO" | "CharacterDevice" }
  | { path: string; type: "SymbolicLink" | "Link"; linkpath: string }
  /** A pax global header, as `git archive` writes first (`comment=<commit>`). */
  | { path: string; type: "GlobalExtendedHeader"; content: string };

function block(size: number): Buffer {
  return Buffer.alloc(Math.ceil(size / 512) * 512);
}

/** One pax record: `<length> <key>=<value>\n`, the length counting itself. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return `${length}${body}`;
}

export function tarGz(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = "content" in entry ? Buffer.from(entry.content) : Buffer.alloc(0);
    const header = new Header({
      path: entry.path,
      type: entry.type ?? "File",
      size: data.length,
      mode:
        "mode" in entry && entry.mode !== undefined
          ? entry.mode
          : entry.type === "Directory"
            ? 0o755
            : 0o644,
      mtime: new Date(0),
      linkpath: "linkpath" in entry ? entry.linkpath : undefined,
    });
    const head = Buffer.alloc(512);
    header.encode(head, 0);
    parts.push(head);
    if (data.length) {
      const body = block(data.length);
      data.copy(body);
      parts.push(body);
    }
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
