import { createWriteStream } from "node:fs";
import { copyFile, mkdir, realpath, symlink } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { Parser, type ReadEntry } from "tar";
import { StepFailure } from "../drivers/types";

// Unpacks an uploaded source archive while it streams, refusing what could escape the build
// folder or exhaust the machine: absolute and `..` paths, links out of the tree, special files,
// more bytes or files than allowed. `.env` files stay out of the build context (secret material).

export interface ArchiveLimits {
  maxBytes: number;
  maxFiles: number;
}

export interface Unpacked {
  files: string[];
  bytes: number;
  /** Paths left out of the context on purpose (e.g. `.env`). */
  skipped: string[];
}

const fail = (entry: string, problem: string) =>
  new StepFailure(`Source archive: ${entry}: ${problem}`);

/** The entry's path inside the archive, or a failure naming it. */
export function entryPath(raw: string): string {
  if (raw.includes("\0")) throw fail(JSON.stringify(raw), "the path holds a NUL byte");
  const posix = raw.replace(/\\/g, "/");
  if (posix.startsWith("/") || /^[A-Za-z]:/.test(posix))
    throw fail(raw, "absolute paths are not allowed");
  if (posix.split("/").includes("..")) throw fail(raw, "paths may not leave the archive (..)");
  return path.posix
    .normalize(posix)
    .replace(/^(\.\/)+/, "")
    .replace(/\/$/, "");
}

const isEnvFile = (rel: string) =>
  /^\.env(\..*)?$/.test(path.posix.basename(rel)) && !rel.endsWith(".example");

/** `target` lies inside `root` (both absolute, already resolved). */
const inside = (root: string, target: string) =>
  target === root || target.startsWith(root + path.sep);

export async function unpackArchive(
  input: Readable,
  dest: string,
  limits: ArchiveLimits,
): Promise<Unpacked> {
  await mkdir(dest, { recursive: true, mode: 0o700 });
  const root = await realpath(dest);
  const result: Unpacked = { files: [], bytes: 0, skipped: [] };
  const parser = new Parser({ strict: true });
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  /** Files being written: destroyed when the archive fails, so no handler waits forever. */
  const writing = new Set<ReturnType<typeof createWriteStream>>();

  /** Parent folders must resolve inside the root (a symlinked folder could point elsewhere). */
  const target = async (rel: string) => {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!inside(root, await realpath(path.dirname(file))))
      throw fail(rel, "a link in its path leads out of the archive");
    return file;
  };

  const handle = async (entry: ReadEntry) => {
    const rel = entryPath(entry.path);
    if (rel === "" || rel === ".") return void entry.resume();
    switch (entry.type) {
      case "Directory":
        await target(path.posix.join(rel, ".keep"));
        return void entry.resume();
      case "File":
      case "OldFile":
      case "ContiguousFile": {
        if (isEnvFile(rel)) {
          result.skipped.push(rel);
          return void entry.resume();
        }
        result.bytes += entry.size;
        if (result.files.length + 1 > limits.maxFiles)
          throw fail(rel, `more than ${limits.maxFiles} files`);
        if (result.bytes > limits.maxBytes)
          throw fail(rel, `the archive unpacks to more than ${limits.maxBytes} bytes`);
        const out = createWriteStream(await target(rel), { mode: 0o600 });
        writing.add(out);
        entry.pipe(out);
        await finished(out).finally(() => writing.delete(out));
        result.files.push(rel);
        return;
      }
      case "SymbolicLink":
      case "Link": {
        const link = entry.linkpath ?? "";
        const base = entry.type === "Link" ? "" : path.posix.dirname(rel);
        const resolved = path.resolve(root, base, link);
        if (path.isAbsolute(link) || !inside(root, resolved))
          throw fail(rel, `links out of the archive (to ${link})`);
        const file = await target(rel);
        if (entry.type === "Link") await copyFile(resolved, file);
        else await symlink(link, file);
        return void entry.resume();
      }
      default:
        throw fail(rel, `${entry.type} entries are not allowed`);
    }
  };

  parser.on("entry", (entry: ReadEntry) => {
    entry.pause();
    chain = chain.then(async () => {
      if (failure) return void entry.resume();
      try {
        await handle(entry);
      } catch (error) {
        failure = error;
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
    for (const out of writing) out.destroy(error as Error);
  });
  await chain;
  if (failure instanceof StepFailure) throw failure;
  if (failure)
    throw new StepFailure(
      `Source archive: not a readable gzipped tar (${(failure as Error).message})`,
    );
  return result;
}
