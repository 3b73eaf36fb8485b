import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import { env } from "@/env";
import { AppError } from "@/server/errors";
import { outboundFetch, type OutboundFetch } from "@/server/outbound/client";
import { findOutboundError } from "@/server/outbound/errors";
import { ArchiveFailure, downloadArchive, type HopAnswer, type HopInit } from "./archive";
import type {
  AccessCheck,
  CodehostClient,
  CodehostCredentials,
  CodehostRepository,
  ListingOptions,
} from "./client";
import { nextPageUrl } from "./pagination";

// The code-host REST v3 dialect through @octokit/rest (contract 7), with baseUrl = api_base_url.
// Every request goes through the outbound client (address policy, no redirects, size cap).

interface RepoPayload {
  id: number;
  name: string;
  owner: { login: string } | null;
  html_url: string;
  default_branch?: string;
}

const toRepository = (r: RepoPayload): CodehostRepository => ({
  id: r.id,
  name: r.name,
  owner: r.owner?.login ?? "",
  url: r.html_url,
  defaultBranch: r.default_branch ?? "main",
});

/** A listing stops here: pages followed, repositories held, and time for all pages together. */
export const LISTING_LIMITS = { maxPages: 100, maxRepositories: 10_000, deadlineMs: 60_000 };
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Octokit's fetch, through the outbound client with a per-request deadline and size cap. */
function octokitFetch(
  outbound: OutboundFetch,
  caps: { timeoutMs: number; maxBytes: number },
): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : input;
    return outbound(url, {
      method: init?.method,
      headers: init?.headers as Record<string, string> | undefined,
      body: (init?.body as string | undefined) ?? null,
      signal: init?.signal,
      ...caps,
    });
  };
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** Code-host failures as the contract's 502, naming what the code host did (never credentials). */
export function toBadGateway(error: unknown, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  const outbound = findOutboundError(error);
  if (outbound?.kind === "refused")
    return new AppError("bad_gateway", `The code host is not called: ${outbound.message}.`);
  if (outbound?.kind === "too_large")
    return new AppError("bad_gateway", `The code host's answer was refused: ${outbound.message}.`);
  const response = (error as { response?: { status: number } }).response;
  if (response) {
    const status = response.status;
    if (status === 401 || status === 403) {
      return new AppError(
        "bad_gateway",
        `The code host refused the integration's credentials (HTTP ${status}); they may have been revoked.`,
      );
    }
    return new AppError("bad_gateway", `The code host failed with HTTP ${status}.`);
  }
  if (
    outbound?.kind === "timeout" ||
    causes(error).some((e) => (e as Error)?.name === "TimeoutError")
  ) {
    return new AppError("bad_gateway", `The code host did not answer within ${timeoutMs} ms.`);
  }
  return new AppError("bad_gateway", "The code host could not be reached.");
}

const isNotFound = (error: unknown) =>
  (error as { response?: { status: number } }).response?.status === 404;

export function createCodehostClient(
  apiBaseUrl: string,
  credentials: CodehostCredentials,
  options: { timeoutMs?: number; fetch?: OutboundFetch; limits?: typeof LISTING_LIMITS } = {},
): CodehostClient {
  const timeoutMs = options.timeoutMs ?? env.HANGAR_CODEHOST_TIMEOUT_MS;
  const limits = options.limits ?? LISTING_LIMITS;
  const baseUrl = apiBaseUrl.replace(/\/+$/, "");
  const quiet = () => undefined;
  const outbound = options.fetch ?? outboundFetch;
  const octokit = new Octokit({
    baseUrl,
    userAgent: "hangar",
    request: { fetch: octokitFetch(outbound, { timeoutMs, maxBytes: MAX_ANSWER_BYTES }) },
    // Octokit's default logger writes to the console; our failures surface as AppErrors instead.
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    ...(credentials.kind === "token"
      ? { auth: credentials.token }
      : {
          authStrategy: createAppAuth,
          auth: {
            appId: credentials.appId,
            privateKey: credentials.privateKey,
            installationId: credentials.installationId,
          },
        }),
  });

  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toBadGateway(error, timeoutMs);
    }
  }

  /**
   * Every page of a listing, following `Link: rel="next"` only within the code host's own origin
   * (the token goes nowhere else), up to the page, size and time bounds, stopping when `signal`
   * aborts (the client went away).
   */
  async function listAll(path: string, listing: ListingOptions): Promise<RepoPayload[]> {
    const deadline = AbortSignal.timeout(limits.deadlineMs);
    const signal = listing.signal ? AbortSignal.any([listing.signal, deadline]) : deadline;
    const repos: RepoPayload[] = [];
    let url: string | null = `${baseUrl}${path}?per_page=100`;
    try {
      for (let page = 1; url; page++) {
        if (page > limits.maxPages)
          throw new AppError(
            "bad_gateway",
            `The code host kept answering with more pages (over ${limits.maxPages}); Hangar stopped listing.`,
          );
        signal.throwIfAborted();
        const response: { data: unknown; headers: { link?: string } } = await octokit.request({
          method: "GET",
          url,
          request: { signal },
        });
        const data = response.data as RepoPayload[] | { repositories?: RepoPayload[] };
        repos.push(...(Array.isArray(data) ? data : (data.repositories ?? [])));
        if (repos.length > limits.maxRepositories)
          throw new AppError(
            "bad_gateway",
            `The code host listed more than ${limits.maxRepositories} repositories; Hangar stopped listing.`,
          );
        url = nextPageUrl(response.headers.link, baseUrl);
      }
    } catch (error) {
      if (deadline.aborted)
        throw new AppError(
          "bad_gateway",
          `The code host did not finish listing within ${limits.deadlineMs} ms.`,
        );
      throw toBadGateway(error, timeoutMs);
    }
    return repos;
  }

  const listingPath = credentials.kind === "token" ? "/user/repos" : "/installation/repositories";

  /** One hop of an archive download on the API's origin: octokit adds the credentials. */
  async function credentialedHop(url: string, init: HopInit): Promise<HopAnswer> {
    try {
      const response = await octokit.request({
        method: "GET",
        url,
        request: {
          fetch: octokitFetch(outbound, { timeoutMs: init.timeoutMs, maxBytes: init.maxBytes }),
          signal: init.signal,
          parseSuccessResponseBody: false,
        },
      });
      const location = (response.headers as { location?: string }).location ?? null;
      return { status: response.status, location, body: response.data as HopAnswer["body"] };
    } catch (error) {
      const status = (error as { response?: { status: number } }).response?.status;
      if (status) return { status, location: null, body: null };
      throw error;
    }
  }

  /** Any other origin: no credentials, no Authorization header. */
  async function anonymousHop(url: string, init: HopInit): Promise<HopAnswer> {
    const response = await outbound(url, { headers: { "user-agent": "hangar" }, ...init });
    const body = response.body as HopAnswer["body"];
    return { status: response.status, location: response.headers.get("location"), body };
  }

  return {
    checkAccess: async (): Promise<AccessCheck> => {
      try {
        await octokit.request({ method: "GET", url: `${baseUrl}${listingPath}?per_page=1` });
        return { ok: true };
      } catch (error) {
        const status = (error as { response?: { status: number } }).response?.status;
        const cause = status === 401 || status === 403 ? "credentials" : "host";
        return { ok: false, cause, message: toBadGateway(error, timeoutMs).message };
      }
    },
    listRepositories: async (listingOptions = {}) =>
      (await listAll(listingPath, listingOptions)).map(toRepository),
    getBranchCommit: (owner, repo, branch) =>
      call(async () => {
        try {
          const { data } = await octokit.rest.repos.getBranch({ owner, repo, branch });
          return data.commit.sha;
        } catch (error) {
          if (isNotFound(error)) return null;
          throw error;
        }
      }),
    fileExists: (owner, repo, path, ref) =>
      call(async () => {
        try {
          await octokit.rest.repos.getContent({ owner, repo, path, ref });
          return true;
        } catch (error) {
          if (isNotFound(error)) return false;
          throw error;
        }
      }),
    createCommitStatus: (owner, repo, sha, status) =>
      call(async () => {
        await octokit.rest.repos.createCommitStatus({
          owner,
          repo,
          sha,
          state: status.state,
          description: status.description.slice(0, 140),
          context: status.context,
          ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
        });
      }),
    downloadArchive: (owner, repo, sha, archive) => {
      const path = [owner, repo, "tarball", sha].map(encodeURIComponent).join("/");
      const hops = {
        apiOrigin: new URL(baseUrl).origin,
        credentialed: credentialedHop,
        anonymous: anonymousHop,
      };
      return downloadArchive(`${baseUrl}/repos/${path}`, hops, archive).catch((error: unknown) => {
        if (error instanceof ArchiveFailure || archive.signal?.aborted) throw error;
        throw toBadGateway(error, timeoutMs);
      });
    },
  };
}
