import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, describe, expect, it, vi } from "vitest";
import { localUploadStore } from "../../../src/server/storage/local";

// Before the modules above read the environment (imports are hoisted above plain statements).
vi.hoisted(() => {
  process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);
});

// The data-folder store's tracing objects: only paths of ids and a hash, kept under its root,
// swept by day.

const root = mkdtempSync(path.join(tmpdir(), "hangar-local-store-"));
const store = localUploadStore(path.join(root, "uploads"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const workspace = "0b1c2d3e-0000-4000-8000-00000000aaaa";
const run = "0b1c2d3e-0000-4000-8000-00000000bbbb";
const objectOf = (day: string, hash: string) => `tracing/${day}/${workspace}/${run}/${hash}`;

describe("the local store's tracing objects", () => {
  it("refuses any path that is not ids and a hash, dot segments included", async () => {
    for (const bad of [
      objectOf("20261129", "../../../../etc/passwd"),
      `tracing/20261129/${workspace}/../${run}/${"a".repeat(64)}`,
      `tracing/../../${"a".repeat(64)}`,
      objectOf("2026112", "a".repeat(64)),
    ])
      await expect(store.put(bad, Readable.from(Buffer.from("x")), 10)).rejects.toThrow(
        /Not an upload path/,
      );
    expect(readdirSync(root)).toEqual([]);
  });

  it("stores them encrypted, reads them back and sweeps the days before a cutoff", async () => {
    const old = objectOf("20200101", "a".repeat(64));
    const kept = objectOf("20261129", "b".repeat(64));
    for (const object of [old, kept])
      await store.put(object, Readable.from(Buffer.from(`plain ${object}`)), 1000);
    expect((await buffer(await store.open(kept))).toString()).toBe(`plain ${kept}`);
    expect(await store.sweepTracing("20261129")).toBe(1);
    expect(await store.exists(old)).toBe(false);
    expect(await store.exists(kept)).toBe(true);
    expect(readdirSync(path.join(root, "uploads", "tracing"))).toEqual(["20261129"]);
  });
});
