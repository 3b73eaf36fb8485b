import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseImageReference } from "../../../src/lib/image-reference";
import { baseImageOf, generateDockerfile } from "../../../src/server/jobs/builder/dockerfile";
import { loadGraphConfig, type GraphConfig } from "../../../src/server/jobs/builder/graph-config";

const config = (overrides: Partial<GraphConfig> = {}): GraphConfig => ({
  path: "langgraph.json",
  dir: "",
  runtime: "python",
  version: "3.12",
  graphs: { agent: "agent.py:graph" },
  localDependencies: ["."],
  packages: [],
  dockerfileLines: [],
  baseImage: null,
  ...overrides,
});

describe("image references", () => {
  it("qualifies names as Docker does and keeps tags and digests", () => {
    expect(parseImageReference("langchain/langgraph-api")).toEqual({
      name: "docker.io/langchain/langgraph-api",
      tag: null,
      digest: null,
    });
    expect(parseImageReference("busybox:1")).toMatchObject({
      name: "docker.io/library/busybox",
      tag: "1",
    });
    expect(parseImageReference("127.0.0.1:5000/ws/base:3.11")).toMatchObject({
      name: "127.0.0.1:5000/ws/base",
      tag: "3.11",
    });
    const digest = `sha256:${"a".repeat(64)}`;
    expect(parseImageReference(`localhost/base@${digest}`)).toMatchObject({
      name: "localhost/base",
      tag: null,
      digest,
    });
  });

  it("refuses what is not an image reference", () => {
    for (const bad of ["", "Upper/case", "a b", "base:", "-base", "base@sha256:abc", "x\nFROM y"])
      expect(parseImageReference(bad), bad).toBeNull();
  });
});

describe("the FROM line", () => {
  it("is the reference platform's image unless the config or the operator names another", () => {
    expect(baseImageOf(config(), null)).toBe("docker.io/langchain/langgraph-api:3.12");
    expect(baseImageOf(config({ runtime: "node", version: "20" }), null)).toBe(
      "docker.io/langchain/langgraphjs-api:20",
    );
    const own = parseImageReference("registry.example.com/ws/base");
    expect(baseImageOf(config({ baseImage: own }), null)).toBe("registry.example.com/ws/base:3.12");
    const pinned = parseImageReference("mirror.example.com/langgraph-api:nightly");
    expect(baseImageOf(config({ baseImage: own }), pinned)).toBe(
      "mirror.example.com/langgraph-api:nightly",
    );
    expect(generateDockerfile(config({ baseImage: own }), { install: null, build: null })).toMatch(
      /^FROM registry\.example\.com\/ws\/base:3\.12\nADD \. \/deps\/app\n/,
    );
  });

  it("comes from the graph config's base_image, checked", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hangar-base-image-"));
    writeFileSync(path.join(dir, "agent.py"), "graph = 1\n");
    const write = (base: string) =>
      writeFileSync(
        path.join(dir, "langgraph.json"),
        JSON.stringify({
          graphs: { agent: "./agent.py:graph" },
          dependencies: ["."],
          base_image: base,
        }),
      );
    write("registry.example.com/ws/base");
    expect((await loadGraphConfig(dir, "langgraph.json")).baseImage).toEqual({
      name: "registry.example.com/ws/base",
      tag: null,
      digest: null,
    });
    write("not an image");
    await expect(loadGraphConfig(dir, "langgraph.json")).rejects.toThrow(
      'langgraph.json: base_image: "not an image" is not an image reference',
    );
  });
});
