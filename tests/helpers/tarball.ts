import { gzipSync } from "node:zlib";
import { Header } from "tar";

// Source archives for builder tests, written entry by entry so a test can also make the
// malicious ones (`../` paths, links out of the tree) a real tar tool would refuse to write.

export type TarEntry =
  | { path: string; content: string | Buffer; type?: "File"; mode?: number }
  | { path: string; type: "Directory" | "FIFO" | "CharacterDevice" }
  | { path: string; type: "SymbolicLink" | "Link"; linkpath: string };

function block(size: number): Buffer {
  return Buffer.alloc(Math.ceil(size / 512) * 512);
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

/** A small valid Python project, as the deploy client packs it (a .env included). */
export const sampleProject = (extra: TarEntry[] = []): TarEntry[] => [
  {
    path: "langgraph.json",
    content: JSON.stringify({
      dependencies: ["."],
      graphs: { agent: "./src/agent.py:graph" },
      env: ".env",
      python_version: "3.12",
    }),
  },
  { path: "pyproject.toml", content: '[project]\nname = "agent"\nversion = "0.1.0"\n' },
  { path: "src/agent.py", content: "graph = None\n" },
  { path: ".env", content: "OPENAI_API_KEY=sk-never-in-a-log\n" },
  ...extra,
];
