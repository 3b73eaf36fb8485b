import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { paxRecord, tarGz, type TarEntry } from "./tar-gz";

// The local code host's archive host: a second origin, as a code host's tarball endpoint
// redirects to one (codeload). It serves a repository's files as a gzipped tar under one top
// folder `<owner>-<repo>-<sha7>/`, like `git archive`, for a URL the API signed with a token.

/** How a repository's tarball is answered, for tests of the build's download rules. */
export interface TarballBehaviour {
  /** A Location the API answers with instead of the archive host's signed URL. */
  location?: (hosts: { api: string; archive: string; archivePort: number }) => string;
  /** Entries written after the repository's files (`top` is the archive's top folder). */
  extraEntries?: (top: string) => TarEntry[];
  /** Random (incompressible) bytes in `<top>/padding.bin`, for an archive that is too large. */
  paddingBytes?: number;
}

export interface ArchiveRepository {
  owner: string;
  name: string;
  files: Record<string, string>;
  tarball?: TarballBehaviour;
}

/** A request either origin saw, with the Authorization header it carried (null: none). */
export interface SeenRequest {
  origin: string;
  request: string;
  authorization: string | null;
}

export interface ArchiveHost {
  url: string;
  port: number;
  /** The signed URL of a repository's archive at `sha`, as the API's redirect names it. */
  signedUrl(repo: ArchiveRepository, sha: string): string;
  stop(): Promise<void>;
}

const CHUNK = 64 * 1024;

/** Folders first (`git archive` writes each before its files), then the files, under `top/`. */
function archiveEntries(repo: ArchiveRepository, sha: string, top: string): TarEntry[] {
  const folders = new Set<string>();
  for (const file of Object.keys(repo.files)) {
    const parts = file.split("/").slice(0, -1);
    parts.forEach((_, i) => folders.add(parts.slice(0, i + 1).join("/")));
  }
  return [
    { path: "pax_global_header", type: "GlobalExtendedHeader", content: paxRecord("comment", sha) },
    { path: `${top}/`, type: "Directory" },
    ...[...folders].sort().map((f) => ({ path: `${top}/${f}/`, type: "Directory" as const })),
    ...Object.entries(repo.files).map(([file, content]) => ({ path: `${top}/${file}`, content })),
    ...(repo.tarball?.paddingBytes
      ? [{ path: `${top}/padding.bin`, content: randomBytes(repo.tarball.paddingBytes) }]
      : []),
    ...(repo.tarball?.extraEntries?.(top) ?? []),
  ];
}

/** Written in chunks, so the answer streams without a Content-Length (as codeload's do). */
async function streamBody(res: http.ServerResponse, body: Buffer): Promise<void> {
  res.writeHead(200, { "content-type": "application/x-gzip" });
  for (let at = 0; at < body.length && !res.destroyed; at += CHUNK) {
    if (!res.write(body.subarray(at, at + CHUNK)))
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off("drain", go).off("close", go);
          resolve();
        };
        res.on("drain", go).on("close", go);
      });
  }
  res.end();
}

export async function startArchiveHost(options: {
  host: string;
  port?: number;
  repos: () => ArchiveRepository[];
  /** A commit's own files, when it has any (else the repository's). */
  filesAt?: (owner: string, name: string, sha: string) => Record<string, string> | null;
  seen: SeenRequest[];
}): Promise<ArchiveHost> {
  /** path -> token: the API signs each redirect, the archive host answers only signed paths. */
  const signed = new Map<string, string>();
  let origin = "";

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", origin);
    options.seen.push({
      origin,
      request: `${req.method} ${url.pathname}${url.search}`,
      authorization: req.headers.authorization ?? null,
    });
    const loop = /^\/loop\/(\d+)$/.exec(url.pathname);
    if (loop) {
      res.writeHead(302, { location: `/loop/${Number(loop[1]) + 1}` });
      return void res.end();
    }
    const [owner, name, kind, sha] = url.pathname.split("/").filter(Boolean);
    const repo = options.repos().find((r) => r.owner === owner && r.name === name);
    const token = signed.get(url.pathname);
    if (
      !repo ||
      kind !== "legacy.tar.gz" ||
      !sha ||
      !token ||
      url.searchParams.get("token") !== token
    ) {
      res.writeHead(404, { "content-type": "text/plain" });
      return void res.end("Not Found");
    }
    const top = `${owner}-${name}-${sha.slice(0, 7)}`;
    const files = options.filesAt?.(repo.owner, repo.name, sha) ?? repo.files;
    await streamBody(res, tarGz(archiveEntries({ ...repo, files }, sha, top)));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://${options.host === "0.0.0.0" ? "localhost" : options.host}:${port}`;
  return {
    url: origin,
    port,
    signedUrl(repo, sha) {
      const path = `/${repo.owner}/${repo.name}/legacy.tar.gz/${sha}`;
      const token = signed.get(path) ?? randomBytes(12).toString("hex");
      signed.set(path, token);
      return `${origin}${path}?token=${token}`;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
