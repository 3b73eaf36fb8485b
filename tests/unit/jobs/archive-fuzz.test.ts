import { randomUUID } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unpackArchive } from "../../../src/server/jobs/builder/archive";
import {
  existsInside,
  PathEscape,
  readTextInside,
} from "../../../src/server/jobs/builder/contained-path";
import { StepFailure } from "../../../src/server/jobs/drivers/types";
import { tarGz, type TarEntry } from "../../helpers/tarball";

// Random archives mixing links, `..`, absolute names, long paths and duplicates: after each, nothing
// outside the build folder exists or changed, every link left inside resolves inside, and no read
// through the containment rule returns the secret that sits beside the folder.

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SECRET = "FUZZ-SECRET";
const escapeName = `hangar-fuzz-escape-${randomUUID()}`;

// Few names, so that members often meet: a link named like a folder, a file under a link.
const name = fc.constantFrom("a", "b", "x");
const odd = fc.constantFrom("..", ".", "", "langgraph.json", ".env", "x".repeat(300), escapeName);
const relPath = fc
  .array(fc.oneof({ weight: 15, arbitrary: name }, { weight: 1, arbitrary: odd }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((parts) => parts.join("/"));
const anyPath = fc.oneof(
  { weight: 30, arbitrary: relPath },
  { weight: 1, arbitrary: relPath.map((p) => `/${p}`) },
  { weight: 1, arbitrary: relPath.map((p) => `../${p}`) },
  {
    weight: 1,
    arbitrary: fc.nat({ max: 20 }).map((n) => `${"../".repeat(n)}tmp/${escapeName}`),
  },
);
/** Link targets: any path, and often the ones that make chains (`.`, `..` through a sibling). */
const linkTarget = fc.oneof(
  { weight: 2, arbitrary: anyPath },
  {
    weight: 3,
    arbitrary: fc.constantFrom(".", ".", "..", "a", "a/..", "a/a/..", "../outside/secret.txt"),
  },
);
const entry: fc.Arbitrary<TarEntry> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ path: anyPath, content: fc.string({ maxLength: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ path: anyPath, type: fc.constant("Directory" as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      path: anyPath,
      type: fc.constant("SymbolicLink" as const),
      linkpath: linkTarget,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ path: anyPath, type: fc.constant("Link" as const), linkpath: anyPath }),
  },
);
/** Only files and links among a few names: dense in chains that climb out through a link. */
const near = fc.constantFrom("a", "b", "x", "a/x", "a/b", "a/a/y");
const chainEntry: fc.Arbitrary<TarEntry> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ path: near, content: fc.constant("planted") }) },
  {
    weight: 2,
    arbitrary: fc.record({
      path: near,
      type: fc.constant("SymbolicLink" as const),
      linkpath: fc.constantFrom(".", "..", "a", "a/..", "../x", "../../outside/secret.txt"),
    }),
  },
);
/** Duplicates on purpose: later entries often reuse an earlier one's path. */
const archive = fc
  .oneof(
    fc.array(entry, { minLength: 1, maxLength: 10 }),
    fc.array(chainEntry, { minLength: 1, maxLength: 8 }),
  )
  .chain((entries) =>
    fc
      .array(fc.tuple(fc.nat({ max: entries.length - 1 }), entry), { maxLength: 4 })
      .map((again) => [
        ...entries,
        ...again.map(([i, e]): TarEntry => ({ ...e, path: entries[i]!.path })),
      ]),
  );

/** Every path under `dir` (links not followed). */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return lstatSync(full).isDirectory() ? [full, ...walk(full)] : [full];
  });
}

describe("unpacking random archives", () => {
  it("never touches anything outside the build folder", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "hangar-fuzz-"));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(archive, async (entries) => {
          const base = path.join(root, String(run++));
          mkdirSync(path.join(base, "outside"), { recursive: true });
          writeFileSync(path.join(base, "outside", "secret.txt"), SECRET);
          const dest = path.join(base, "context");
          const outcome = await unpackArchive(Readable.from(tarGz(entries)), dest, {
            maxBytes: 4096,
            maxFiles: 30,
          }).catch((error: unknown) => error);
          if (outcome instanceof Error) expect(outcome).toBeInstanceOf(StepFailure);

          expect(readdirSync(base).sort()).toEqual(["context", "outside"]);
          expect(readdirSync(path.join(base, "outside"))).toEqual(["secret.txt"]);
          expect(readFileSync(path.join(base, "outside", "secret.txt"), "utf8")).toBe(SECRET);
          expect(existsSync(path.join("/tmp", escapeName))).toBe(false);

          const inside = realpathSync.native(dest);
          for (const file of walk(dest)) {
            if (!lstatSync(file).isSymbolicLink()) continue;
            const resolved = (() => {
              try {
                return realpathSync.native(file);
              } catch {
                return null; // dangling: points at nothing (inside, checked by the unpacker)
              }
            })();
            if (resolved) expect(resolved.startsWith(inside)).toBe(true);
          }
          for (const e of entries) {
            const read = await readTextInside(dest, e.path.replace(/^\/+/, ""), 4096).catch(
              (error: unknown) => (error instanceof PathEscape ? null : Promise.reject(error)),
            );
            expect(read).not.toBe(SECRET);
            await existsInside(dest, e.path.replace(/^\/+/, ""));
          }
        }),
        { numRuns: RUNS },
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
