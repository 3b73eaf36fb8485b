import type { TarEntry } from "./tarball";

// The project the build tests and bench:builds build: a Python graph on a base image.

/** A Python project on `baseImage` whose graph file holds `graph`, plus `extra` files. */
export function pythonProject(
  baseImage: string,
  graph: string,
  extra: TarEntry[] = [],
  config: Record<string, unknown> = {},
): TarEntry[] {
  return [
    {
      path: "langgraph.json",
      content: JSON.stringify({
        graphs: { agent: "./agent/graph.py:graph" },
        dependencies: ["."],
        python_version: "3.11",
        base_image: baseImage,
        ...config,
      }),
    },
    { path: "agent/graph.py", content: graph },
    ...extra,
  ];
}
