import { constants } from "node:fs";
import { lstat, open, readlink, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";

// The containment rule for every path built from user input inside a build folder (Go's
// securejoin, refusing instead of clamping): a path is resolved component by component against
// what is really on disk, links followed only while they stay inside the folder, and the file at
// the end opened without following a link. Nothing here ever reads or writes outside `root`.

/** A path that would leave its folder (through `..`, an absolute name or a link). */
export class PathEscape extends Error {
  override name = "PathEscape";
}

/** Links that lead to each other more than the kernel would follow. */
export class LinkLoop extends PathEscape {
  override name = "LinkLoop";
}

const MAX_LINK_HOPS = 40;
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;
/** What a lookup may meet that means "no such file" to a reader. */
const ABSENT = ["ENOENT", "ENOTDIR", "ENAMETOOLONG"];

export interface Resolved {
  /** The absolute path with every link inside it replaced by what it points to. */
  path: string;
  /** False when some component is missing (the rest was applied without following anything). */
  exists: boolean;
}

/**
 * Resolves `rel` inside `root` (an absolute folder that is itself no link). Throws PathEscape
 * when an absolute name, a `..` above the root or a link leads out, or links loop.
 */
export async function resolveInside(root: string, rel: string): Promise<Resolved> {
  if (rel.includes("\0")) throw new PathEscape(`${JSON.stringify(rel)} holds a NUL byte`);
  if (path.posix.isAbsolute(rel)) throw new PathEscape(`${rel} is an absolute path`);
  const pending = rel.split("/");
  const current: string[] = [];
  let hops = 0;
  let missing = false;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (current.length === 0) throw new PathEscape(`${rel} leads out of its folder`);
      current.pop();
      continue;
    }
    current.push(part);
    if (missing) continue;
    const here = path.join(root, ...current);
    const info = await lstat(here).catch((error: unknown) => {
      if (ABSENT.includes(code(error) ?? "")) return null;
      throw error;
    });
    if (!info) {
      // Nothing more exists below: the rest is plain names (and `..` may not climb out).
      missing = true;
      continue;
    }
    if (!info.isSymbolicLink()) continue;
    if (++hops > MAX_LINK_HOPS) throw new LinkLoop(`${rel}: its links loop`);
    const target = await readlink(here);
    if (path.posix.isAbsolute(target)) throw new PathEscape(`${rel} leads to ${target}`);
    current.pop();
    pending.unshift(...target.split("/"));
  }
  return { path: path.join(root, ...current), exists: !missing };
}

/** The regular file `rel` resolves to inside `root`, opened for reading; null if there is none. */
export async function openInside(root: string, rel: string): Promise<FileHandle | null> {
  const resolved = await resolveInside(root, rel);
  if (!resolved.exists) return null;
  const handle = await open(resolved.path, O_RDONLY | O_NOFOLLOW).catch((error: unknown) => {
    if ([...ABSENT, "ELOOP"].includes(code(error) ?? "")) return null;
    throw error;
  });
  if (handle && !(await handle.stat()).isFile()) {
    await handle.close();
    return null;
  }
  return handle;
}

/** A file's text (at most `maxBytes`, else FileTooLarge), null when `rel` names no file. */
export async function readTextInside(
  root: string,
  rel: string,
  maxBytes: number,
): Promise<string | null> {
  const handle = await openInside(root, rel);
  if (!handle) return null;
  try {
    if ((await handle.stat()).size > maxBytes) throw new FileTooLarge(rel, maxBytes);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

export class FileTooLarge extends Error {
  override name = "FileTooLarge";
  constructor(rel: string, maxBytes: number) {
    super(`${rel} is larger than ${maxBytes} bytes`);
  }
}

/** Whether `rel` names something (file or folder) that resolves inside `root`. */
export async function existsInside(root: string, rel: string): Promise<boolean> {
  return resolveInside(root, rel).then(
    (resolved) => resolved.exists,
    (error: unknown) => {
      if (error instanceof PathEscape) return false;
      throw error;
    },
  );
}

/**
 * Creates (or replaces) the file `name` directly in `root` without following a link that stands
 * there: a link or file of that name is removed first, and the new file is opened exclusively.
 */
export async function writeFileInRoot(root: string, name: string, text: string): Promise<void> {
  if (name.includes("/") || name === "." || name === "..")
    throw new PathEscape(`${name} is not a plain file name`);
  const file = path.join(root, name);
  const info = await lstat(file).catch(() => null);
  if (info?.isDirectory()) throw new PathEscape(`${name} is a folder in the archive`);
  if (info) await unlink(file);
  const handle = await open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
