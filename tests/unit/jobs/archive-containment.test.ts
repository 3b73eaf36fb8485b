import { randomUUID } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { unpackArchive } from "../../../src/server/jobs/builder/archive";
import { writeFileInRoot } from "../../../src/server/jobs/builder/contained-path";
import { loadGraphConfig } from "../../../src/server/jobs/builder/graph-config";
import { trackedPackageLines } from "../../../src/server/jobs/builder/tracked-packages";
import { sampleProject, tarGz, type TarEntry } from "../../helpers/tarball";

// The containment rule (issue 23, findings 1-3): what an archive may place and read, checked on
// the file system around the build folder, not only by the error message.

const SECRET = "TOPSECRET-do-not-leak";

/** A build folder `base/context` beside a secret file `base/secret.txt` that must stay unread. */
function workspace() {
  const base = mkdtempSync(path.join(tmpdir(), "hangar-contain-"));
  writeFileSync(path.join(base, "secret.txt"), SECRET);
  return { base, dest: path.join(base, "context") };
}

const limits = { maxBytes: 1024 * 1024, maxFiles: 100 };

const unpack = (dest: string, entries: TarEntry[], options = limits) =>
  unpackArchive(Readable.from(tarGz(entries)), dest, options);

/**
 * The chain of the report: `a -> .`, then links under `a/...` whose targets stay inside as text
 * (16 `..` from 16 levels down) but, `a` being the folder itself, climb 16 levels above it on
 * disk; then plain files written through them.
 */
function chain(tmpName: string, last: TarEntry[]): TarEntry[] {
  const deep = Array.from({ length: 16 }, () => "a").join("/");
  return [
    { path: "a", type: "SymbolicLink", linkpath: "." },
    { path: "a/x", type: "SymbolicLink", linkpath: "../escaped.txt" },
    {
      path: `${deep}/y`,
      type: "SymbolicLink",
      linkpath: `${"../".repeat(16)}tmp/${tmpName}`,
    },
    ...last,
  ];
}

describe("the symbolic link chain (arbitrary file write)", () => {
  it("is refused and writes nothing outside the build folder", async () => {
    const { base, dest } = workspace();
    const tmpName = `hangar-escape-${randomUUID()}`;
    await expect(
      unpack(
        dest,
        chain(tmpName, [
          { path: "x", content: "overwritten" },
          { path: "y", content: "planted" },
        ]),
      ),
    ).rejects.toThrow(/Source archive: a\/x: its path passes through the link a/);
    expect(readdirSync(base).sort()).toEqual(["context", "secret.txt"]);
    expect(existsSync(path.join("/tmp", tmpName))).toBe(false);
    expect(readFileSync(path.join(base, "secret.txt"), "utf8")).toBe(SECRET);
  });

  it("refuses folders and files through a declared link before creating anything", async () => {
    const { base, dest } = workspace();
    await expect(
      unpack(dest, [
        { path: "up", type: "SymbolicLink", linkpath: "sub/.." },
        { path: "up/made-outside", type: "Directory" },
      ]),
    ).rejects.toThrow(/up\/made-outside: its path passes through the link up/);
    expect(readdirSync(base).sort()).toEqual(["context", "secret.txt"]);
    expect(readdirSync(dest)).toEqual([]);
  });

  it("resolves links on disk: a link through another link may not climb out", async () => {
    const { base, dest } = workspace();
    await expect(
      unpack(dest, [
        { path: "here", type: "SymbolicLink", linkpath: "." },
        { path: "deep/out", type: "SymbolicLink", linkpath: "../here/here/../../secret.txt" },
      ]),
    ).rejects.toThrow(/deep\/out: links out of the archive/);
    await expect(
      unpack(path.join(base, "second"), [
        { path: "self", type: "SymbolicLink", linkpath: "." },
        { path: "out", type: "SymbolicLink", linkpath: "self/self/.." },
      ]),
    ).rejects.toThrow(/out: links out of the archive \(to "self\/self\/\.\."\)/);
  });

  it("refuses a link declared where a file stands, and a file where a link stands", async () => {
    const { dest } = workspace();
    await expect(
      unpack(dest, [
        { path: "f", content: "x" },
        { path: "f", type: "SymbolicLink", linkpath: "g" },
      ]),
    ).rejects.toThrow(/f: appears twice, once as a link/);
    const other = workspace();
    await expect(
      unpack(other.dest, [
        { path: "f", type: "SymbolicLink", linkpath: "g" },
        { path: "f", content: "x" },
      ]),
    ).rejects.toThrow(/f: appears twice, once as a link/);
  });

  it("refuses links that loop", async () => {
    const { dest } = workspace();
    await expect(
      unpack(dest, [
        { path: "a", type: "SymbolicLink", linkpath: "b" },
        { path: "b", type: "SymbolicLink", linkpath: "a" },
      ]),
    ).rejects.toThrow(/Source archive: a: its links loop/);
  });

  it("keeps links that stay inside, as links", async () => {
    const { dest } = workspace();
    const unpacked = await unpack(dest, [
      { path: "src/agent.py", content: "graph = None\n" },
      { path: "lib/src", type: "SymbolicLink", linkpath: "../src" },
      { path: "README", type: "SymbolicLink", linkpath: "src/agent.py" },
      { path: "later", type: "SymbolicLink", linkpath: "not-yet/there" },
    ]);
    expect(unpacked.links).toEqual({
      "lib/src": "../src",
      README: "src/agent.py",
      later: "not-yet/there",
    });
    expect(readlinkSync(path.join(dest, "lib/src"))).toBe("../src");
    expect(readFileSync(path.join(dest, "lib/src/agent.py"), "utf8")).toBe("graph = None\n");
  });

  it("refuses devices and pipes", async () => {
    const { dest } = workspace();
    await expect(unpack(dest, [{ path: "pipe", type: "FIFO" }])).rejects.toThrow(
      /pipe: FIFO entries are not allowed/,
    );
    await expect(
      unpack(path.join(dest, "2"), [{ path: "tty", type: "CharacterDevice" }]),
    ).rejects.toThrow(/tty: CharacterDevice entries are not allowed/);
  });
});

describe("reading user files (arbitrary file read)", () => {
  it("a graph config that is a link out of the folder is never read", async () => {
    const { base, dest } = workspace();
    mkdirSync(dest);
    // Links as any earlier hole could have left them: the read must not follow them out.
    symlinkSync(path.join(base, "secret.txt"), path.join(dest, "absolute.json"));
    symlinkSync("../secret.txt", path.join(dest, "langgraph.json"));
    symlinkSync(".", path.join(dest, "self"));
    symlinkSync("self/..", path.join(dest, "up"));
    for (const config of ["langgraph.json", "absolute.json", "up/secret.txt"]) {
      const failure = await loadGraphConfig(dest, config).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/link in its path leads out of the archive/);
      expect((failure as Error).message).not.toContain("TOPSECRET");
    }
    writeFileSync(path.join(base, "requirements.txt"), "langgraph==0.0.1-from-outside\n");
    expect(await trackedPackageLines(dest, "up", ["langgraph"])).toEqual([
      "Tracked package langgraph: no version constraint in the project's dependency files",
    ]);
  });

  it("a hard link to a link is refused, and graph files found only through links inside", async () => {
    const { dest } = workspace();
    await expect(
      unpack(dest, [
        { path: "out", type: "SymbolicLink", linkpath: "inside.txt" },
        { path: "langgraph.json", type: "Link", linkpath: "out" },
      ]),
    ).rejects.toThrow(/langgraph.json: hard link to out, which is no file unpacked before it/);
    const ok = workspace();
    await unpack(
      ok.dest,
      sampleProject([{ path: "alias.json", type: "SymbolicLink", linkpath: "langgraph.json" }]),
    );
    expect((await loadGraphConfig(ok.dest, "alias.json")).graphs).toEqual({
      agent: "src/agent.py:graph",
    });
  });
});

describe("hard links (limits)", () => {
  const big = Buffer.alloc(2_400_000, 7);

  it("become independent copies that count against the byte limit", async () => {
    const { dest } = workspace();
    const entries: TarEntry[] = [
      { path: "big.bin", content: big },
      ...Array.from({ length: 10 }, (_, i): TarEntry => ({
        path: `copy${i}`,
        type: "Link",
        linkpath: "big.bin",
      })),
    ];
    await expect(unpack(dest, entries, { maxBytes: 4_000_000, maxFiles: 100 })).rejects.toThrow(
      /copy0: the archive unpacks to more than 4000000 bytes/,
    );
    const roomy = workspace();
    const unpacked = await unpack(roomy.dest, entries.slice(0, 3), {
      maxBytes: 10_000_000,
      maxFiles: 100,
    });
    expect(unpacked.bytes).toBe(3 * big.length);
    const inodes = ["big.bin", "copy0", "copy1"].map((f) => statSync(path.join(roomy.dest, f)));
    expect(new Set(inodes.map((s) => s.ino)).size).toBe(3);
    expect(inodes.every((s) => s.nlink === 1 && s.size === big.length)).toBe(true);
  });

  it("count against the file limit", async () => {
    const { dest } = workspace();
    const entries: TarEntry[] = [
      { path: "one", content: "x" },
      ...Array.from({ length: 120 }, (_, i): TarEntry => ({
        path: `l${i}`,
        type: "Link",
        linkpath: "one",
      })),
    ];
    await expect(unpack(dest, entries)).rejects.toThrow(
      /l99: more than 100 files, folders and links/,
    );
  });

  it("duplicates replace the earlier file without counting it twice", async () => {
    const { dest } = workspace();
    const unpacked = await unpack(
      dest,
      [
        { path: "f", content: Buffer.alloc(600) },
        { path: "f", content: Buffer.alloc(700) },
      ],
      { maxBytes: 1000, maxFiles: 1 },
    );
    expect(unpacked).toMatchObject({ files: ["f"], bytes: 700 });
    expect(lstatSync(path.join(dest, "f")).size).toBe(700);
  });
});

describe("files Hangar writes into the build folder", () => {
  it("replace a link of the same name instead of writing through it", async () => {
    const { base, dest } = workspace();
    mkdirSync(dest);
    symlinkSync("../secret.txt", path.join(dest, "Dockerfile.hangar"));
    await writeFileInRoot(dest, "Dockerfile.hangar", "FROM scratch\n");
    expect(readFileSync(path.join(base, "secret.txt"), "utf8")).toBe(SECRET);
    expect(lstatSync(path.join(dest, "Dockerfile.hangar")).isFile()).toBe(true);
    expect(readFileSync(path.join(dest, "Dockerfile.hangar"), "utf8")).toBe("FROM scratch\n");
  });
});

describe(".env files", () => {
  it("stay out of the folder, also as hard links and links", async () => {
    const { dest } = workspace();
    const unpacked = await unpack(dest, [
      { path: "config.txt", content: "SECRET=1" },
      { path: ".env", type: "Link", linkpath: "config.txt" },
      { path: "sub/.env.local", type: "SymbolicLink", linkpath: "../config.txt" },
      { path: ".env.example", content: "SECRET=" },
    ]);
    expect(unpacked.skipped).toEqual([".env", "sub/.env.local"]);
    expect(readdirSync(dest).sort()).toEqual([".env.example", "config.txt"]);
  });
});
