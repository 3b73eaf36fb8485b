import path from "node:path";
import { z } from "zod";
import { parseImageReference, type ImageReference } from "@/lib/image-reference";
import { StepFailure } from "../drivers/types";
import { existsInside, FileTooLarge, PathEscape, readTextInside } from "./contained-path";

// The graph configuration (langgraph.json) of a project (an upload, a repository), checked
// against its files: every failure names the file and the member that is wrong.

export const PYTHON_VERSIONS = ["3.11", "3.12", "3.13"];
const MIN_NODE_MAJOR = 20;

const graphSpec = z.union([
  z.string().min(1),
  z.object({ path: z.string().min(1), description: z.string().optional() }).passthrough(),
]);

const configSchema = z
  .object({
    graphs: z.record(z.string().min(1), graphSpec),
    dependencies: z.array(z.string().min(1)).optional(),
    python_version: z.string().optional(),
    node_version: z.string().optional(),
    env: z.union([z.string().min(1), z.record(z.string(), z.string())]).optional(),
    dockerfile_lines: z.array(z.string()).optional(),
    base_image: z.string().min(1).optional(),
  })
  .passthrough();

export interface GraphConfig {
  /** The config's path inside the archive, e.g. `langgraph.json`. */
  path: string;
  /** Its folder inside the archive ("" at the root). */
  dir: string;
  runtime: "python" | "node";
  version: string;
  /** name -> `file:attr` relative to the archive root. */
  graphs: Record<string, string>;
  /** Local dependency folders (relative to the archive root) and package requirements. */
  localDependencies: string[];
  packages: string[];
  dockerfileLines: string[];
  /** The graph config's base_image, checked (tag or digest optional). */
  baseImage: ImageReference | null;
}

const JS_FILE = /\.(m|c)?(j|t)sx?$/;
/** A graph config larger than this is refused rather than read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** `source` names where the files came from, for a config that is missing. */
export async function loadGraphConfig(
  root: string,
  configPath: string,
  source = "the uploaded archive",
): Promise<GraphConfig> {
  const where = configPath;
  const problem = (member: string, text: string) =>
    new StepFailure(`${where}: ${member ? `${member}: ` : ""}${text}`);
  const normalized = path.posix.normalize(configPath).replace(/^(\.\/)+/, "");
  if (normalized.startsWith("../") || path.posix.isAbsolute(normalized))
    throw problem("", "graph_config_path must lie inside the archive");

  let raw: string | null;
  try {
    raw = await readTextInside(root, normalized, MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof PathEscape)
      throw problem("", "a link in its path leads out of the archive");
    if (error instanceof FileTooLarge) throw problem("", `larger than ${MAX_CONFIG_BYTES} bytes`);
    throw error;
  }
  if (raw === null) throw problem("", `not found in ${source} (graph_config_path)`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw problem("", `not valid JSON (${(error as Error).message})`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw problem(issue.path.join(".") || "(root)", issue.message);
  }
  const config = parsed.data;
  const dir = path.posix.dirname(normalized) === "." ? "" : path.posix.dirname(normalized);
  const fromConfig = (rel: string) => path.posix.normalize(path.posix.join(dir, rel));
  const escapes = (rel: string) => rel === ".." || rel.startsWith("../");

  if (Object.keys(config.graphs).length === 0) throw problem("graphs", "names no graph");
  const graphs: Record<string, string> = {};
  let anyJs = false;
  for (const [name, spec] of Object.entries(config.graphs)) {
    const value = typeof spec === "string" ? spec : spec.path;
    const colon = value.lastIndexOf(":");
    if (colon <= 0 || colon === value.length - 1)
      throw problem(`graphs.${name}`, `"${value}" is not of the form path:attribute`);
    const [target, attr] = [value.slice(0, colon), value.slice(colon + 1)];
    const file = /[/\\]|\.\w+$/.test(target)
      ? fromConfig(target)
      : fromConfig(`${target.replace(/\./g, "/")}.py`);
    if (escapes(file) || !(await existsInside(root, file)))
      throw problem(`graphs.${name}`, `file ${target} not found in the archive`);
    if (JS_FILE.test(file)) anyJs = true;
    graphs[name] = `${file}:${attr}`;
  }

  const runtime =
    config.node_version && !config.python_version ? "node" : anyJs ? "node" : "python";
  let version: string;
  if (runtime === "python") {
    version = config.python_version ?? "3.11";
    if (!PYTHON_VERSIONS.includes(version))
      throw problem(
        "python_version",
        `${version} is not supported (use ${PYTHON_VERSIONS.join(", ")})`,
      );
  } else {
    version = config.node_version ?? String(MIN_NODE_MAJOR);
    if (!/^\d+$/.test(version) || Number(version) < MIN_NODE_MAJOR)
      throw problem(
        "node_version",
        `${version} is not supported (a major version, ${MIN_NODE_MAJOR} or newer)`,
      );
  }

  const localDependencies: string[] = [];
  const packages: string[] = [];
  for (const [i, dep] of (config.dependencies ?? (runtime === "python" ? [] : ["."])).entries()) {
    if (!dep.startsWith(".") && !dep.startsWith("/")) {
      packages.push(dep);
      continue;
    }
    const folder = fromConfig(dep);
    if (dep.startsWith("/") || escapes(folder) || !(await existsInside(root, folder)))
      throw problem(`dependencies[${i}]`, `local dependency ${dep} not found in the archive`);
    localDependencies.push(folder);
  }
  if (runtime === "python" && config.dependencies === undefined)
    throw problem("dependencies", 'is required for Python graphs (e.g. ["."])');

  if (typeof config.env === "string") {
    const envFile = fromConfig(config.env);
    if (escapes(envFile)) throw problem("env", `${config.env} lies outside the archive`);
    // The env file itself never enters the build; its values come from the deployment's secrets.
  }
  const baseImage = config.base_image ? parseImageReference(config.base_image) : null;
  if (config.base_image && !baseImage)
    throw problem("base_image", `"${config.base_image}" is not an image reference`);
  return {
    path: normalized,
    dir,
    runtime,
    version,
    graphs,
    localDependencies,
    packages,
    dockerfileLines: config.dockerfile_lines ?? [],
    baseImage,
  };
}
