import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { Parser, type ReadEntry } from "tar";
import { StepFailure } from "../drivers/types";
import { archiveFailure, Placement, type ArchiveLimits, type Unpacked } from "./archive-placement";

// Unpacks a source archive (an upload, a code host's tarball) while it streams. node-tar parses
// it; where each member lands is ours (archive-placement.ts): node-tar's own extractor writes
// symbolic links to any target and makes real hard links, which a build folder must never hold.

export type { ArchiveLimits, Unpacked } from "./archive-placement";

const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 1024;

/** The entry's path inside the archive, or a failure naming it. */
export function entryPath(raw: string): string {
  if (raw.includes("\0")) throw archiveFailure(JSON.stringify(raw), "the path holds a NUL byte");
  const posix = raw.replace(/\\/g, "/");
  if (posix.startsWith("/") || /^[A-Za-z]:/.test(posix))
    throw archiveFailure(raw, "absolute paths are not allowed");
  if (posix.split("/").includes(".."))
    throw archiveFailure(raw, "paths may not leave the archive (..)");
  const rel = path.posix
    .normalize(posix)
    .replace(/^(\.\/)+/, "")
    .replace(/\/$/, "");
  if (
    Buffer.byteLength(rel) > MAX_PATH_BYTES ||
    rel.split("/").some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES)
  )
    throw archiveFailure(
      rel.slice(0, 80),
      `the path is too long (at most ${MAX_PATH_BYTES} bytes, ${MAX_NAME_BYTES} per name)`,
    );
  return rel === "." ? "" : rel;
}

/** A file-system error as the member's failure: its code, never the server's paths. */
function unwritable(rel: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? archiveFailure(rel, `cannot be unpacked (${code})`) : error;
}

export interface UnpackOptions {
  /**
   * The archive holds one top folder (a code host's `owner-repo-sha/`): its contents become the
   * root, and a member (or a hard link's target) outside it fails the archive.
   */
  stripTopFolder?: boolean;
}

/** Maps a member's path (already checked by entryPath) to where it lands under the root. */
type Relocate = (rel: string, member: string) => string;

const keepPath: Relocate = (rel) => rel;

/** The first member's first component is the top folder; every path must lie in it. */
function stripTopFolder(): Relocate {
  let top: string | null = null;
  return (rel, member) => {
    if (rel === "") return rel;
    const slash = rel.indexOf("/");
    const first = slash < 0 ? rel : rel.slice(0, slash);
    top ??= first;
    if (first !== top)
      throw archiveFailure(member, `lies outside the archive's top folder ${top}/`);
    return slash < 0 ? "" : rel.slice(slash + 1);
  };
}

async function place(placement: Placement, entry: ReadEntry, relocate: Relocate): Promise<void> {
  const rel = relocate(entryPath(entry.path), entry.path);
  if (rel === "") {
    if (entry.type !== "Directory")
      throw archiveFailure(
        entry.path,
        `is a ${entry.type}; the archive's top level must be a folder`,
      );
    return void entry.resume();
  }
  await placeMember(placement, entry, rel, relocate).catch((error: unknown) => {
    throw unwritable(rel, error);
  });
}

async function placeMember(
  placement: Placement,
  entry: ReadEntry,
  rel: string,
  relocate: Relocate,
): Promise<void> {
  switch (entry.type) {
    case "Directory":
      await placement.folder(rel);
      return void entry.resume();
    case "File":
    case "OldFile":
    case "ContiguousFile":
      return placement.file(rel, entry, entry.size, ((entry.mode ?? 0) & 0o111) !== 0);
    case "Link": {
      entry.resume();
      const original = entry.linkpath ?? "";
      const inArchive = (() => {
        try {
          return relocate(entryPath(original), original);
        } catch {
          throw archiveFailure(rel, `links out of the archive (to ${JSON.stringify(original)})`);
        }
      })();
      return placement.copy(rel, inArchive);
    }
    case "SymbolicLink":
      entry.resume();
      return placement.link(rel, entry.linkpath ?? "");
    default:
      throw archiveFailure(rel, `${entry.type} entries are not allowed`);
  }
}

/**
 * Unpacks a gzipped tar into `dest` (made here; it must not hold anything yet). Throws
 * StepFailure naming the member and the problem; on failure `dest` may hold a partial tree.
 */
export async function unpackArchive(
  input: Readable,
  dest: string,
  limits: ArchiveLimits,
  options: UnpackOptions = {},
): Promise<Unpacked> {
  const relocate = options.stripTopFolder ? stripTopFolder() : keepPath;
  await mkdir(dest, { recursive: true, mode: 0o700 });
  /** Aborted when the archive fails, so the member being written stops instead of waiting. */
  const stop = new AbortController();
  const placement = new Placement(await realpath(dest), limits, stop.signal);
  const parser = new Parser({ strict: true });
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;

  parser.on("entry", (entry: ReadEntry) => {
    entry.pause();
    chain = chain.then(async () => {
      if (failure) return void entry.resume();
      try {
        await place(placement, entry, relocate);
      } catch (error) {
        failure ??= error;
        entry.resume();
        parser.abort(error as Error);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    parser.on("error", reject);
    parser.on("abort", reject);
    parser.on("end", resolve);
    input.on("error", reject);
    input.pipe(parser as unknown as NodeJS.WritableStream);
  }).catch((error: unknown) => {
    failure ??= error;
    stop.abort(error);
  });
  await chain;
  if (!failure)
    return placement.finish().catch((error: unknown) => {
      throw unwritable("links", error);
    });
  if (failure instanceof StepFailure) throw failure;
  throw new StepFailure(
    `Source archive: not a readable gzipped tar (${(failure as Error).message})`,
  );
}
