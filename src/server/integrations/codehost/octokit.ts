import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import { env } from "@/env";
import { AppError } from "@/server/errors";
import type { CodehostClient, CodehostCredentials, CodehostRepository } from "./client";

// The code-host REST v3 dialect through @octokit/rest (contract 7), with baseUrl = api_base_url.

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

/** fetch with a per-request deadline, so a silent code host cannot hold a request forever. */
function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return fetch(input, { ...init, signal });
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
  if (causes(error).some((e) => (e as Error)?.name === "TimeoutError")) {
    return new AppError("bad_gateway", `The code host did not answer within ${timeoutMs} ms.`);
  }
  return new AppError("bad_gateway", "The code host could not be reached.");
}

const isNotFound = (error: unknown) =>
  (error as { response?: { status: number } }).response?.status === 404;

export function createCodehostClient(
  apiBaseUrl: string,
  credentials: CodehostCredentials,
  options: { timeoutMs?: number } = {},
): CodehostClient {
  const timeoutMs = options.timeoutMs ?? env.HANGAR_CODEHOST_TIMEOUT_MS;
  const quiet = () => undefined;
  const octokit = new Octokit({
    baseUrl: apiBaseUrl.replace(/\/+$/, ""),
    userAgent: "hangar",
    request: { fetch: fetchWithTimeout(timeoutMs) },
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

  return {
    listRepositories: () =>
      call(async () => {
        const repos: RepoPayload[] =
          credentials.kind === "token"
            ? await octokit.paginate("GET /user/repos", { per_page: 100 })
            : await octokit.paginate("GET /installation/repositories", { per_page: 100 });
        return repos.map(toRepository);
      }),
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
  };
}
