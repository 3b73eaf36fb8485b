import { constants } from "node:fs";
import { lstat, mkdir, open, symlink, unlink } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { StepFailure } from "../drivers/types";
import { LinkLoop, PathEscape, resolveInside } from "./contained-path";

// Where an archive's members land, under the containment rule (contained-path.ts): folders are
// made one component at a time and must be real folders, files are created exclusively without
// following links, hard links become counted copies, and symbolic links are only written once
// every file is in place, then each is resolved on disk and must stay inside the folder.

export interface ArchiveLimits {
  maxBytes: number;
  /** Most members (files, folders and links) the archive may place. */
  maxFiles: number;
}

export interface Unpacked {
  files: string[];
  /** Symbolic links: path -> target, as written. */
  links: Record<string, string>;
  bytes: number;
  /** Paths left out of the context on purpose (e.g. `.env`). */
  skipped: string[];
}

export const archiveFailure = (entry: string, problem: string) =>
  new StepFailure(`Source archive: ${entry}: ${problem}`);

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
const MAX_LINK_TARGET = 1024;

const isEnvFile = (rel: string) =>
  /^\.env(\..*)?$/.test(path.posix.basename(rel)) && !rel.endsWith(".example");

const prefixes = (rel: string) =>
  rel.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));

export class Placement {
  /** Folders made (or found to be real folders) by this unpack, "" being the root. */
  private readonly folders = new Set<string>([""]);
  /** Regular files written: path -> size. */
  private readonly files = new Map<string, number>();
  /** Symbolic links declared, written by finish() in archive order. */
  private readonly links = new Map<string, string>();
  private readonly skipped: string[] = [];
  private bytes = 0;

  constructor(
    private readonly root: string,
    private readonly limits: ArchiveLimits,
    private readonly signal: AbortSignal,
  ) {}

  private count(rel: string) {
    if (this.folders.size - 1 + this.files.size + this.links.size + 1 > this.limits.maxFiles)
      throw archiveFailure(rel, `more than ${this.limits.maxFiles} files, folders and links`);
  }

  /** Refuses a path that is, or passes through, a link the archive declared. */
  private refuseLinkInPath(rel: string) {
    for (const prefix of prefixes(rel)) {
      if (!this.links.has(prefix)) continue;
      throw archiveFailure(
        rel,
        prefix === rel
          ? "appears twice, once as a link"
          : `its path passes through the link ${prefix}`,
      );
    }
  }

  private skip(rel: string): boolean {
    if (!isEnvFile(rel)) return false;
    this.skipped.push(rel);
    return true;
  }

  /** Makes `rel` and every folder above it, each a real folder (never a link or a file). */
  async folder(rel: string): Promise<void> {
    if (rel === "") return;
    this.refuseLinkInPath(rel);
    for (const prefix of prefixes(rel)) {
      if (this.folders.has(prefix)) continue;
      if (this.files.has(prefix)) throw archiveFailure(rel, `${prefix} is a file, not a folder`);
      const here = path.join(this.root, prefix);
      const info = await lstat(here).catch(() => null);
      if (!info) {
        this.count(prefix);
        await mkdir(here, { mode: 0o700 });
      } else if (!info.isDirectory()) {
        throw archiveFailure(rel, `${prefix} is not a folder`);
      }
      this.folders.add(prefix);
    }
  }

  /** Writes a regular file from `body` (`size` bytes); a later member of the same path wins. */
  async file(
    rel: string,
    body: AsyncIterable<Buffer> & { resume(): unknown },
    size: number,
    executable: boolean,
  ): Promise<void> {
    if (this.skip(rel)) return void body.resume();
    this.refuseLinkInPath(rel);
    if (this.folders.has(rel)) throw archiveFailure(rel, "is a folder in the archive already");
    await this.folder(path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel));
    const previous = this.files.get(rel);
    if (previous === undefined) this.count(rel);
    if (this.bytes - (previous ?? 0) + size > this.limits.maxBytes)
      throw archiveFailure(rel, `the archive unpacks to more than ${this.limits.maxBytes} bytes`);
    const target = path.join(this.root, rel);
    if (previous !== undefined) await unlink(target);
    const handle = await open(
      target,
      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
      executable ? 0o700 : 0o600,
    );
    this.files.set(rel, size);
    this.bytes += size - (previous ?? 0);
    await pipeline(body, handle.createWriteStream(), { signal: this.signal });
  }

  /** A hard link: a copy of a file this archive wrote before it, counted like any file. */
  async copy(rel: string, original: string): Promise<void> {
    if (this.skipped.includes(original) || isEnvFile(rel)) return void this.skipped.push(rel);
    const size = this.files.get(original);
    if (size === undefined)
      throw archiveFailure(rel, `hard link to ${original}, which is no file unpacked before it`);
    const source = await open(path.join(this.root, original), O_RDONLY | O_NOFOLLOW);
    try {
      await this.file(rel, source.createReadStream({ autoClose: false }), size, false);
    } finally {
      await source.close();
    }
  }

  /** A symbolic link, checked now as text and written (and checked on disk) by finish(). */
  async link(rel: string, target: string): Promise<void> {
    if (this.skip(rel)) return;
    this.refuseLinkInPath(rel);
    if (this.folders.has(rel) || this.files.has(rel))
      throw archiveFailure(rel, "appears twice, once as a link");
    const dir = path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel);
    const lexical = path.posix.normalize(path.posix.join(dir, target));
    if (
      !target ||
      target.includes("\0") ||
      target.length > MAX_LINK_TARGET ||
      path.posix.isAbsolute(target) ||
      lexical === ".." ||
      lexical.startsWith("../")
    )
      throw archiveFailure(rel, `links out of the archive (to ${JSON.stringify(target)})`);
    await this.folder(dir);
    this.count(rel);
    this.links.set(rel, target);
  }

  /** Writes the links, then resolves each on disk: one that leads out fails the archive. */
  async finish(): Promise<Unpacked> {
    const written: string[] = [];
    try {
      for (const [rel, target] of this.links) {
        await symlink(target, path.join(this.root, rel));
        written.push(rel);
      }
      for (const [rel, target] of this.links) {
        await resolveInside(this.root, rel).catch((error: unknown) => {
          if (error instanceof LinkLoop) throw archiveFailure(rel, "its links loop");
          if (error instanceof PathEscape)
            throw archiveFailure(rel, `links out of the archive (to ${JSON.stringify(target)})`);
          throw error;
        });
      }
    } catch (error) {
      // A refused archive leaves no link behind that a later reader could follow out.
      for (const rel of written) await unlink(path.join(this.root, rel));
      throw error;
    }
    return {
      files: [...this.files.keys()],
      links: Object.fromEntries(this.links),
      bytes: this.bytes,
      skipped: this.skipped,
    };
  }
}
