import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { unpackArchive } from "../../../src/server/jobs/builder/archive";
import { loadGraphConfig } from "../../../src/server/jobs/builder/graph-config";
import { StepFailure } from "../../../src/server/jobs/drivers/types";
import { sampleProject, tarGz, type TarEntry } from "../../helpers/tarball";

const limits = { maxBytes: 1024 * 1024, maxFiles: 100 };

function unpack(entries: TarEntry[], options = limits) {
  const base = mkdtempSync(path.join(tmpdir(), "hangar-unpack-"));
  const dest = path.join(base, "context");
  return {
    base,
    dest,
    result: unpackArchive(Readable.from(tarGz(entries)), dest, options),
  };
}

describe("unpackArchive", () => {
  it("unpacks files, leaves .env out of the context", async () => {
    const { dest, result } = unpack(sampleProject());
    const unpacked = await result;
    expect(unpacked.files.sort()).toEqual(["langgraph.json", "pyproject.toml", "src/agent.py"]);
    expect(unpacked.skipped).toEqual([".env"]);
    expect(readFileSync(path.join(dest, "src/agent.py"), "utf8")).toBe("graph = None\n");
    expect(existsSync(path.join(dest, ".env"))).toBe(false);
  });

  it("refuses ../ entries and writes nothing outside", async () => {
    const { base, result } = unpack([
      { path: "ok.txt", content: "fine" },
      { path: "../escaped.txt", content: "evil" },
    ]);
    await expect(result).rejects.toThrow(/\.\.\/escaped\.txt: paths may not leave the archive/);
    expect(readdirSync(base)).toEqual(["context"]);
  });

  it("refuses absolute paths, links out of the tree and paths through them", async () => {
    await expect(unpack([{ path: "/etc/passwd", content: "x" }]).result).rejects.toThrow(
      /absolute paths/,
    );
    await expect(
      unpack([{ path: "out", type: "SymbolicLink", linkpath: "../../etc" }]).result,
    ).rejects.toThrow(/out: links out of the archive/);
    await expect(
      unpack([{ path: "hard", type: "Link", linkpath: "/etc/passwd" }]).result,
    ).rejects.toThrow(/hard: links out of the archive/);
  });

  it("refuses more files or bytes than allowed", async () => {
    const many = Array.from({ length: 4 }, (_, i) => ({ path: `f${i}`, content: "x" }));
    await expect(unpack(many, { maxBytes: 1000, maxFiles: 3 }).result).rejects.toThrow(
      /f3: more than 3 files/,
    );
    await expect(
      unpack([{ path: "big", content: Buffer.alloc(2000) }], { maxBytes: 1000, maxFiles: 3 })
        .result,
    ).rejects.toThrow(/big: the archive unpacks to more than 1000 bytes/);
  });

  it("refuses what is not a gzipped tar", async () => {
    const dest = mkdtempSync(path.join(tmpdir(), "hangar-unpack-"));
    await expect(
      unpackArchive(Readable.from(Buffer.from("not a tarball at all")), dest, limits),
    ).rejects.toBeInstanceOf(StepFailure);
  });
});

describe("loadGraphConfig", () => {
  async function load(entries: TarEntry[], configPath = "langgraph.json") {
    const { dest, result } = unpack(entries);
    await result;
    return loadGraphConfig(dest, configPath);
  }

  it("reads graphs, runtime and dependencies", async () => {
    const config = await load(sampleProject());
    expect(config).toMatchObject({
      runtime: "python",
      version: "3.12",
      graphs: { agent: "src/agent.py:graph" },
      localDependencies: ["."],
    });
  });

  it("names the file and the problem", async () => {
    await expect(load(sampleProject(), "missing.json")).rejects.toThrow(
      "missing.json: not found in the uploaded archive (graph_config_path)",
    );
    const broken = (config: object) =>
      load([
        { path: "langgraph.json", content: JSON.stringify(config) },
        { path: "a.py", content: "" },
      ]);
    await expect(broken({ dependencies: ["."], graphs: { g: "./b.py:graph" } })).rejects.toThrow(
      "langgraph.json: graphs.g: file ./b.py not found in the archive",
    );
    await expect(broken({ dependencies: ["."], graphs: { g: "./a.py" } })).rejects.toThrow(
      /graphs\.g: "\.\/a\.py" is not of the form path:attribute/,
    );
    await expect(
      broken({ dependencies: ["."], graphs: { g: "./a.py:g" }, python_version: "2.7" }),
    ).rejects.toThrow("langgraph.json: python_version: 2.7 is not supported");
    await expect(broken({ dependencies: ["./lib"], graphs: { g: "./a.py:g" } })).rejects.toThrow(
      "langgraph.json: dependencies[0]: local dependency ./lib not found in the archive",
    );
    await expect(load([{ path: "langgraph.json", content: "{not json" }])).rejects.toThrow(
      /langgraph.json: not valid JSON/,
    );
  });
});

describe("a stream that fails mid-archive", () => {
  it("ends the unpack with a failure instead of waiting forever", async () => {
    const archive = tarGz(sampleProject([{ path: "big.bin", content: Buffer.alloc(200_000, 1) }]));
    const dest = mkdtempSync(path.join(tmpdir(), "hangar-unpack-"));
    const broken = new Readable({
      read() {
        this.push(archive.subarray(0, 4096));
        this.destroy(new Error("unsupported state or unable to authenticate data"));
      },
    });
    await expect(unpackArchive(broken, path.join(dest, "c"), limits)).rejects.toThrow(
      /not a readable gzipped tar \(unsupported state/,
    );
  });
});

describe("trackedPackageLines", () => {
  it("reports each tracked package's constraint from the project's dependency files", async () => {
    const { dest, result } = unpack([
      {
        path: "pyproject.toml",
        content:
          '[project]\nname = "agent"\nversion = "0.1.0"\ndependencies = ["langgraph>=0.2,<0.4", "langchain_core==0.3.1"]\n',
      },
      {
        path: "web/package.json",
        content: JSON.stringify({ dependencies: { "@langchain/langgraph": "^0.2.0" } }),
      },
    ]);
    await result;
    const { trackedPackageLines } =
      await import("../../../src/server/jobs/builder/tracked-packages");
    expect(
      await trackedPackageLines(dest, "", ["langgraph", "langchain-core", "name", "openai"]),
    ).toEqual([
      "Tracked package langgraph: >=0.2,<0.4 (pyproject.toml)",
      "Tracked package langchain-core: ==0.3.1 (pyproject.toml)",
      "Tracked package name: no version constraint in the project's dependency files",
      "Tracked package openai: no version constraint in the project's dependency files",
    ]);
    expect(await trackedPackageLines(dest, "web", ["@langchain/langgraph"])).toEqual([
      "Tracked package @langchain/langgraph: ^0.2.0 (web/package.json)",
    ]);
  });
});
