import { mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { unpackArchive } from "../../../src/server/jobs/builder/archive";
import { paxRecord } from "../../../testing/tar-gz";
import { tarGz, type TarEntry } from "../../helpers/tarball";

// A code host's tarball holds one top folder (`owner-repo-sha/`): unpacked with stripTopFolder,
// its contents are the build folder's root and nothing outside that folder is written.

const TOP = "acme-support-bot-1a2b3c4";
const limits = { maxBytes: 1024 * 1024, maxFiles: 100 };

/** A build folder `base/context` beside a file that must stay untouched. */
function workspace() {
  const base = mkdtempSync(path.join(tmpdir(), "hangar-top-"));
  writeFileSync(path.join(base, "outside.txt"), "untouched");
  return { base, dest: path.join(base, "context") };
}

const unpack = (dest: string, entries: TarEntry[]) =>
  unpackArchive(Readable.from(tarGz(entries)), dest, limits, { stripTopFolder: true });

/** What `git archive` writes first: a pax global header naming the commit. */
const globalHeader: TarEntry = {
  path: "pax_global_header",
  type: "GlobalExtendedHeader",
  content: paxRecord("comment", "1a2b3c4".padEnd(40, "0")),
};

const listing = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();

describe("unpacking with stripTopFolder", () => {
  it("makes the top folder's contents the root, links and hard links included", async () => {
    const { dest } = workspace();
    const unpacked = await unpack(dest, [
      globalHeader,
      { path: `${TOP}/`, type: "Directory" },
      { path: `${TOP}/langgraph.json`, content: "{}" },
      { path: `${TOP}/src/`, type: "Directory" },
      { path: `${TOP}/src/agent.py`, content: "graph = None\n" },
      { path: `${TOP}/src/alias.py`, type: "SymbolicLink", linkpath: "agent.py" },
      { path: `${TOP}/copy.py`, type: "Link", linkpath: `${TOP}/src/agent.py` },
    ]);
    expect(unpacked.files.sort()).toEqual(["copy.py", "langgraph.json", "src/agent.py"]);
    expect(unpacked.links).toEqual({ "src/alias.py": "agent.py" });
    expect(listing(dest)).toEqual([
      "copy.py",
      "langgraph.json",
      "src",
      "src/agent.py",
      "src/alias.py",
    ]);
    expect(readFileSync(path.join(dest, "copy.py"), "utf8")).toBe("graph = None\n");
    expect(readlinkSync(path.join(dest, "src/alias.py"))).toBe("agent.py");
  });

  it("takes the first member's folder as the top even without its own folder entry", async () => {
    const { dest } = workspace();
    const unpacked = await unpack(dest, [{ path: `${TOP}/a/b.txt`, content: "b" }]);
    expect(unpacked.files).toEqual(["a/b.txt"]);
    expect(listing(dest)).toEqual(["a", "a/b.txt"]);
  });

  it("refuses a member outside the top folder, naming it, and writes nothing out there", async () => {
    const { base, dest } = workspace();
    await expect(
      unpack(dest, [
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/langgraph.json`, content: "{}" },
        { path: "elsewhere/planted.txt", content: "x" },
      ]),
    ).rejects.toThrow(
      `Source archive: elsewhere/planted.txt: lies outside the archive's top folder ${TOP}/`,
    );
    expect(readdirSync(base).sort()).toEqual(["context", "outside.txt"]);
    expect(listing(dest)).toEqual(["langgraph.json"]);
  });

  it("refuses a file beside the top folder and a file as the top level", async () => {
    await expect(
      unpack(workspace().dest, [
        { path: `${TOP}/`, type: "Directory" },
        { path: "README.md", content: "x" },
      ]),
    ).rejects.toThrow(`Source archive: README.md: lies outside the archive's top folder ${TOP}/`);
    await expect(unpack(workspace().dest, [{ path: "README.md", content: "x" }])).rejects.toThrow(
      "Source archive: README.md: is a File; the archive's top level must be a folder",
    );
    await expect(
      unpack(workspace().dest, [{ path: TOP, type: "SymbolicLink", linkpath: "/etc" }]),
    ).rejects.toThrow(
      `Source archive: ${TOP}: is a SymbolicLink; the archive's top level must be a folder`,
    );
  });

  it("refuses hard links, symbolic links and `..` paths that lead out of the top folder", async () => {
    const { base, dest } = workspace();
    await expect(
      unpack(dest, [
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/copy`, type: "Link", linkpath: "other/secret" },
      ]),
    ).rejects.toThrow('Source archive: copy: links out of the archive (to "other/secret")');
    await expect(
      unpack(path.join(base, "second"), [
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/up`, type: "SymbolicLink", linkpath: "../outside.txt" },
      ]),
    ).rejects.toThrow('Source archive: up: links out of the archive (to "../outside.txt")');
    await expect(
      unpack(path.join(base, "third"), [
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/../outside.txt`, content: "overwritten" },
      ]),
    ).rejects.toThrow("paths may not leave the archive (..)");
    expect(readFileSync(path.join(base, "outside.txt"), "utf8")).toBe("untouched");
  });
});
