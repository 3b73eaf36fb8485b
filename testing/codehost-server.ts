import { createHash, createPublicKey, randomBytes, verify, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startArchiveHost, type SeenRequest, type TarballBehaviour } from "./codehost-archive";
import { pullRequests, type PullRequests } from "./codehost-pulls";

// A small code host speaking the common REST v3 dialect (contract 7), for tests and local use:
// repository listings with Link-header pages, app installation tokens, branches, contents, and
// tarballs (a redirect to its archive host, a second origin: testing/codehost-archive.ts).

export interface SampleRepository {
  id: number;
  owner: string;
  name: string;
  defaultBranch?: string;
  branches?: string[];
  /** Files of every branch: path -> content (a valid project by default). */
  files?: Record<string, string>;
  /** Files of one branch instead (branch -> its files). */
  branchFiles?: Record<string, Record<string, string>>;
  tarball?: TarballBehaviour;
}

export interface CodehostApp {
  appId: string;
  /** The public half of the key the app signs its JWTs with. */
  publicKey: string | KeyObject;
  installationId: string;
}

export interface CodehostServerOptions {
  port?: number;
  host?: string;
  repos?: SampleRepository[];
  /** Generated repositories (owner `bulk-org`) on top of `repos`, to exercise pagination. */
  extraRepos?: number;
  /** Accepted personal access tokens. */
  tokens?: string[];
  apps?: CodehostApp[];
  /** A listing page that answers 500. */
  failPage?: number | null;
  /** The archive host's port (default: any free one). */
  archivePort?: number;
}

export interface CodehostServer {
  url: string;
  port: number;
  /** The archive host (a second origin) the tarball endpoint redirects to. */
  archiveUrl: string;
  repos: SampleRepository[];
  stop(): Promise<void>;
  /** Revokes (or restores) a personal or installation token: it then gets 401. */
  setRevoked(token: string, revoked?: boolean): void;
  setFailPage(page: number | null): void;
  /** Delays every response, to exercise client timeouts. */
  setDelay(ms: number): void;
  /** Request lines seen, e.g. "GET /user/repos?per_page=100&page=2". */
  requests: string[];
  /** Every request either origin saw, with its Authorization header. */
  seen: SeenRequest[];
  /** Pull requests: signed pull_request deliveries sent, commit statuses received. */
  pulls: PullRequests;
}

export const DEFAULT_TOKEN = "codehost-dev-token";

export const LANGGRAPH_JSON = JSON.stringify(
  {
    dependencies: ["."],
    graphs: { agent: "./src/agent.py:graph" },
    env: ".env",
    python_version: "3.12",
  },
  null,
  2,
);

/** A valid Python project (as tests/helpers/tarball.ts sampleProject), its `.env` committed. */
export const SAMPLE_FILES: Record<string, string> = {
  "langgraph.json": LANGGRAPH_JSON,
  "pyproject.toml": '[project]\nname = "agent"\nversion = "0.1.0"\n',
  "src/agent.py": "graph = None\n",
  ".env": "OPENAI_API_KEY=sk-committed-never-in-a-build\n",
};

export const sampleRepositories: SampleRepository[] = [
  { id: 1001, owner: "acme", name: "support-bot" },
  { id: 1002, owner: "acme", name: "agent-chat" },
  { id: 1003, owner: "beta-labs", name: "rag-server" },
  { id: 1004, owner: "acme", name: "research-agent" },
  { id: 1005, owner: "beta-labs", name: "Eval-Harness", defaultBranch: "dev" },
  { id: 1006, owner: "Zeta", name: "no-config", files: { "README.md": "# no graph here\n" } },
];

const MAX_PER_PAGE = 100;

/** A sha that is stable for a repository and branch, like a commit the branch points at. */
export function branchSha(owner: string, name: string, branch: string): string {
  return createHash("sha1").update(`${owner}/${name}@${branch}`).digest("hex");
}

function send(res: http.ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const notFound = (res: http.ServerResponse) => send(res, 404, { message: "Not Found" });

/** Verifies an RS256 app JWT; returns its issuer (the app id) or null. */
function verifyAppJwt(jwt: string, apps: CodehostApp[]): CodehostApp | null {
  const [header, payload, signature] = jwt.split(".");
  if (!header || !payload || !signature) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const app = apps.find((a) => a.appId === String(claims.iss));
    if (!app || typeof claims.exp !== "number" || claims.exp * 1000 < Date.now()) return null;
    const ok = verify(
      "sha256",
      Buffer.from(`${header}.${payload}`),
      createPublicKey(app.publicKey),
      Buffer.from(signature, "base64url"),
    );
    return ok ? app : null;
  } catch {
    return null;
  }
}

export async function startCodehostServer(
  options: CodehostServerOptions = {},
): Promise<CodehostServer> {
  const repos = [...(options.repos ?? sampleRepositories)];
  for (let i = 1; i <= (options.extraRepos ?? 0); i++) {
    repos.push({ id: 10_000 + i, owner: "bulk-org", name: `repo-${String(i).padStart(4, "0")}` });
  }
  const personal = new Set(options.tokens ?? [DEFAULT_TOKEN]);
  const installationTokens = new Map<string, string>();
  const revoked = new Set<string>();
  const apps = options.apps ?? [];
  let failPage = options.failPage ?? null;
  let delayMs = 0;
  const requests: string[] = [];
  const seen: SeenRequest[] = [];
  let baseUrl = "";
  const pulls = pullRequests(() => baseUrl);
  const archive = await startArchiveHost({
    host: options.host ?? "127.0.0.1",
    port: options.archivePort,
    repos: () => repos.map((r) => ({ ...r, files: r.files ?? SAMPLE_FILES })),
    // A pull request's head or a branch with files of its own; else the repository's.
    filesAt: (owner, name, sha) => {
      const repo = repos.find((r) => r.owner === owner && r.name === name);
      const branch = (repo?.branches ?? ["main", "dev"]).find(
        (b) => branchSha(owner, name, b) === sha,
      );
      return (
        pulls.filesAt(`${owner}/${name}`, sha) ??
        (branch ? repo?.branchFiles?.[branch] : undefined) ??
        null
      );
    },
    seen,
  });

  const repoPayload = (r: SampleRepository) => ({
    id: r.id,
    node_id: Buffer.from(`repo:${r.id}`).toString("base64"),
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    private: true,
    owner: { login: r.owner, id: r.id * 7, type: "Organization" },
    html_url: `${baseUrl}/${r.owner}/${r.name}`,
    url: `${baseUrl}/repos/${r.owner}/${r.name}`,
    default_branch: r.defaultBranch ?? "main",
  });

  /** One page of a listing, with RFC 5988 Link headers like the reference code host. */
  function listPage(req: http.IncomingMessage, res: http.ServerResponse, url: URL, wrap: boolean) {
    const perPage = Math.min(
      Math.max(Number(url.searchParams.get("per_page")) || 30, 1),
      MAX_PER_PAGE,
    );
    const page = Math.max(Number(url.searchParams.get("page")) || 1, 1);
    if (failPage === page) return send(res, 500, { message: "Server Error" });
    const last = Math.max(Math.ceil(repos.length / perPage), 1);
    const items = repos.slice((page - 1) * perPage, page * perPage).map(repoPayload);
    const link = (p: number, rel: string) => {
      const target = new URL(url.pathname, `http://${req.headers.host}`);
      target.search = url.search;
      target.searchParams.set("per_page", String(perPage));
      target.searchParams.set("page", String(p));
      return `<${target}>; rel="${rel}"`;
    };
    const links = [
      ...(page > 1 ? [link(page - 1, "prev"), link(1, "first")] : []),
      ...(page < last ? [link(page + 1, "next"), link(last, "last")] : []),
    ];
    const body = wrap
      ? { total_count: repos.length, repository_selection: "all", repositories: items }
      : items;
    send(res, 200, body, links.length ? { link: links.join(", ") } : {});
  }

  function issueInstallationToken(req: http.IncomingMessage, res: http.ServerResponse, id: string) {
    const jwt = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const app = jwt ? verifyAppJwt(jwt, apps) : null;
    if (!app) return send(res, 401, { message: "A JSON web token could not be decoded" });
    if (app.installationId !== id) return notFound(res);
    const token = `ghs_${randomBytes(18).toString("hex")}`;
    installationTokens.set(token, id);
    const expires = new Date(Date.now() + 3600_000).toISOString();
    send(res, 201, { token, expires_at: expires, repository_selection: "all", permissions: {} });
  }

  function repoRoute(res: http.ServerResponse, url: URL, parts: string[]) {
    const [owner, name, kind, ...rest] = parts;
    const repo = repos.find((r) => r.owner === owner && r.name === name);
    if (!repo) return notFound(res);
    const branches = repo.branches ?? ["main", "dev"];
    const restPath = rest.map(decodeURIComponent).join("/");
    const fullName = `${repo.owner}/${repo.name}`;
    // A pull request's head branch, in the repository its head lives in, points at its head.
    const branchCommit = (ref: string) =>
      pulls.branchHead(fullName, ref) ??
      (branches.includes(ref) ? branchSha(repo.owner, repo.name, ref) : null);
    const commitOf = (ref: string) =>
      branchCommit(ref) ??
      (branches.some((b) => branchSha(repo.owner, repo.name, b) === ref) ||
      pulls.holds(fullName, ref)
        ? ref
        : null);
    const branchHead = kind === "branches" ? branchCommit(restPath) : null;
    if (branchHead) {
      const sha = branchHead;
      return send(res, 200, {
        name: restPath,
        commit: { sha, url: `${baseUrl}/repos/${owner}/${name}/commits/${sha}` },
        protected: false,
      });
    }
    if (kind === "tarball") {
      const sha = commitOf(restPath);
      if (!sha) return notFound(res);
      const hosts = { api: baseUrl, archive: archive.url, archivePort: archive.port };
      const location =
        repo.tarball?.location?.(hosts) ??
        archive.signedUrl({ ...repo, files: repo.files ?? SAMPLE_FILES }, sha);
      res.writeHead(302, { location });
      return void res.end();
    }
    if (kind === "contents") {
      const ref = url.searchParams.get("ref") ?? repo.defaultBranch ?? "main";
      const content = (repo.files ?? SAMPLE_FILES)[restPath];
      if (!commitOf(ref) || content === undefined) return notFound(res);
      return send(res, 200, {
        type: "file",
        name: restPath.split("/").pop(),
        path: restPath,
        sha: createHash("sha1").update(content).digest("hex"),
        size: Buffer.byteLength(content),
        encoding: "base64",
        content: Buffer.from(content).toString("base64"),
      });
    }
    notFound(res);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://codehost.local");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    seen.push({
      origin: baseUrl,
      request: `${req.method} ${url.pathname}${url.search}`,
      authorization: req.headers.authorization ?? null,
    });
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const parts = url.pathname.split("/").filter(Boolean);
    const tokenText = /^(?:token|Bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];

    const install = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname);
    if (req.method === "POST" && install) return issueInstallationToken(req, res, install[1]!);
    const statusPath = /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{7,64})$/.exec(url.pathname);
    if (req.method !== "GET" && !(req.method === "POST" && statusPath)) return notFound(res);

    const isPersonal = !!tokenText && personal.has(tokenText);
    const isInstallation = !!tokenText && installationTokens.has(tokenText);
    if (!tokenText || revoked.has(tokenText) || (!isPersonal && !isInstallation)) {
      return send(res, 401, { message: "Bad credentials" });
    }
    if (statusPath) {
      const [, owner, name, sha] = statusPath as unknown as [string, string, string, string];
      if (!repos.some((r) => r.owner === owner && r.name === name)) return notFound(res);
      const body = JSON.parse((await readBody(req)) || "null");
      if (!pulls.recordStatus(owner, name, sha, body, req.headers.authorization ?? null))
        return send(res, 422, { message: "Validation Failed" });
      return send(res, 201, { state: body.state, context: body.context ?? "default" });
    }
    if (url.pathname === "/user/repos") {
      if (!isPersonal) return send(res, 403, { message: "Resource not accessible by integration" });
      return listPage(req, res, url, false);
    }
    if (url.pathname === "/installation/repositories") {
      if (!isInstallation)
        return send(res, 403, { message: "A token of an installation is required" });
      return listPage(req, res, url, true);
    }
    if (parts[0] === "repos" && parts.length >= 4) return repoRoute(res, url, parts.slice(1));
    notFound(res);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { message: "Server Error" }));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${options.host === "0.0.0.0" ? "localhost" : (options.host ?? "127.0.0.1")}:${port}`;

  return {
    url: baseUrl,
    port,
    archiveUrl: archive.url,
    repos,
    requests,
    seen,
    pulls,
    stop: async () => {
      await archive.stop();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
    setRevoked: (token, isRevoked = true) =>
      isRevoked ? revoked.add(token) : revoked.delete(token),
    setFailPage: (page) => (failPage = page),
    setDelay: (ms) => (delayMs = ms),
  };
}
