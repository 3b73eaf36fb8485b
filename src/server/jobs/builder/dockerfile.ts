import { formatImageReference, type ImageReference } from "@/lib/image-reference";
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

const DEFAULT_BASE = {
  python: "docker.io/langchain/langgraph-api",
  node: "docker.io/langchain/langgraphjs-api",
};

/**
 * The FROM image: the operator's override (HANGAR_BUILD_BASE_IMAGE), else the graph config's
 * base_image, else the reference platform's; a name without tag or digest is tagged with the
 * runtime's version, as the reference deploy client does.
 */
export function baseImageOf(config: GraphConfig, override: ImageReference | null): string {
  const base = override ??
    config.baseImage ?? { name: DEFAULT_BASE[config.runtime], tag: null, digest: null };
  return formatImageReference(base.tag || base.digest ? base : { ...base, tag: config.version });
}

/** Where an archive path lands in the image. */
const inImage = (rel: string) => `/deps/app/${rel}`.replace(/\/\.?$/, "");

export function generateDockerfile(
  config: GraphConfig,
  commands: { install: string | null; build: string | null },
  baseImage: ImageReference | null = null,
): string {
  const from = `FROM ${baseImageOf(config, baseImage)}`;
  const workdir = inImage(config.dir);
  const graphs = Object.fromEntries(
    Object.entries(config.graphs).map(([name, spec]) => [name, inImage(spec)]),
  );
  const lines =
    config.runtime === "python"
      ? [
          from,
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
          from,
          ...config.dockerfileLines,
          "ADD . /deps/app",
          `RUN cd ${workdir} && ${commands.install ?? "npm ci"}`,
          `ENV LANGSERVE_GRAPHS='${JSON.stringify(graphs)}'`,
          ...(commands.build ? [`RUN cd ${workdir} && ${commands.build}`] : []),
          `WORKDIR ${workdir}`,
        ];
  return `${lines.join("\n")}\n`;
}
