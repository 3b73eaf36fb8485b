import type { GraphConfig } from "./graph-config";

// The Dockerfile for an uploaded project, in the reference platform's layout: the project under
// /deps/<folder>, its graphs in LANGSERVE_GRAPHS. `.env` files never enter the context.

export const DOCKERIGNORE = [
  ".env",
  ".env.*",
  "!.env.example",
  ".git",
  "__pycache__",
  "node_modules",
  ".venv",
];

/** Where an archive path lands in the image. */
const inImage = (rel: string) => `/deps/app/${rel}`.replace(/\/\.?$/, "");

export function generateDockerfile(
  config: GraphConfig,
  commands: { install: string | null; build: string | null },
): string {
  const workdir = inImage(config.dir);
  const graphs = Object.fromEntries(
    Object.entries(config.graphs).map(([name, spec]) => [name, inImage(spec)]),
  );
  const lines =
    config.runtime === "python"
      ? [
          `FROM langchain/langgraph-api:${config.version}`,
          ...config.dockerfileLines,
          "ADD . /deps/app",
          ...(config.packages.length
            ? [
                `RUN PYTHONDONTWRITEBYTECODE=1 uv pip install --system --no-cache-dir -c /api/constraints.txt ${config.packages.map((p) => JSON.stringify(p)).join(" ")}`,
              ]
            : []),
          ...config.localDependencies.map(
            (dep) =>
              `RUN PYTHONDONTWRITEBYTECODE=1 uv pip install --system --no-cache-dir -c /api/constraints.txt -e ${inImage(dep)}`,
          ),
          ...(commands.install ? [`RUN cd ${workdir} && ${commands.install}`] : []),
          `ENV LANGSERVE_GRAPHS='${JSON.stringify(graphs)}'`,
          ...(commands.build ? [`RUN cd ${workdir} && ${commands.build}`] : []),
          `WORKDIR ${workdir}`,
        ]
      : [
          `FROM langchain/langgraphjs-api:${config.version}`,
          ...config.dockerfileLines,
          "ADD . /deps/app",
          `RUN cd ${workdir} && ${commands.install ?? "npm ci"}`,
          `ENV LANGSERVE_GRAPHS='${JSON.stringify(graphs)}'`,
          ...(commands.build ? [`RUN cd ${workdir} && ${commands.build}`] : []),
          `WORKDIR ${workdir}`,
        ];
  return `${lines.join("\n")}\n`;
}
