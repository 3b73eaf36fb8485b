import type { TarEntry } from "../../testing/tar-gz";

// Source archives for builder tests (the writer is shared with the local code host's tarballs).

export { tarGz, type TarEntry } from "../../testing/tar-gz";

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
