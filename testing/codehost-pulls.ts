import { createHash, createHmac, randomUUID } from "node:crypto";

// The test code host's pull requests (testing/codehost-server.ts): it sends signed
// pull_request deliveries to the webhooks it was given, as the reference code host does, and
// keeps the commit statuses it is sent. A pull request's head commits live in its head
// repository (a fork's own) and, as the reference code host keeps them under
// refs/pull/<n>/head, in its base repository: nowhere else, and under no branch of the base.

export interface RecordedStatus {
  owner: string;
  repo: string;
  sha: string;
  state: string;
  target_url: string | null;
  description: string | null;
  context: string | null;
  authorization: string | null;
}

export interface PullRequestOptions {
  /** The base repository, `owner/name`. */
  repo: string;
  /** The branch the pull request merges into (default main). */
  base?: string;
  /** The head branch (default `feature-<number>`). */
  head?: string;
  title?: string;
  author?: string;
  /** The head lives in this other repository (`owner/name`): a fork's pull request. */
  fork?: string;
  /** The head commit's files (default: the base repository's). */
  files?: Record<string, string>;
}

export interface PullRequest {
  number: number;
  repo: string;
  base: string;
  head: string;
  headSha: string;
  title: string;
  author: string;
  fork: string | null;
  pushes: number;
  state: "open" | "closed";
}

export interface Delivery {
  id: string;
  status: number;
  /** Hangar's answer: the webhook receipt (202) or the contract's error body (`detail`). */
  body: {
    deliveries: string[];
    previews: {
      parent_id: string | null;
      preview_id: string | null;
      outcome: string;
      detail: string | null;
    }[];
    detail?: unknown;
  };
}

/** The signature header's value for a body: sha256=<hex HMAC-SHA256 with the secret>. */
export const signPayload = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** The n-th head commit of a pull request: a stable sha the repository then knows. */
export const pullSha = (repo: string, number: number, push: number) =>
  createHash("sha1").update(`${repo}#${number}@${push}`).digest("hex");

export function pullRequests(baseUrl: () => string) {
  const pulls = new Map<string, PullRequest>();
  const hooks: { url: string; secret: string }[] = [];
  const statuses: RecordedStatus[] = [];
  /** `owner/name` -> the pull request head commits that repository holds. */
  const heads = new Map<string, Set<string>>();
  /** A head commit -> its files, when a pull request named them. */
  const headFiles = new Map<string, Record<string, string>>();
  let next = 1;

  /** A new head commit, held by the base repository (refs/pull/<n>/head) and the head's own. */
  function addHead(pr: PullRequest, files: Record<string, string> | undefined) {
    for (const repo of [pr.repo, pr.fork ?? pr.repo]) {
      if (!heads.has(repo)) heads.set(repo, new Set());
      heads.get(repo)!.add(pr.headSha);
    }
    if (files) headFiles.set(pr.headSha, files);
  }

  function payload(pr: PullRequest, action: string, merged = false) {
    const url = baseUrl();
    const headRepo = pr.fork ?? pr.repo;
    return {
      action,
      number: pr.number,
      pull_request: {
        number: pr.number,
        state: pr.state,
        title: pr.title,
        html_url: `${url}/${pr.repo}/pull/${pr.number}`,
        merged,
        user: { login: pr.author },
        head: {
          ref: pr.head,
          sha: pr.headSha,
          repo: { full_name: headRepo, html_url: `${url}/${headRepo}`, fork: !!pr.fork },
        },
        base: { ref: pr.base, repo: { full_name: pr.repo, html_url: `${url}/${pr.repo}` } },
      },
      repository: { full_name: pr.repo, html_url: `${url}/${pr.repo}` },
      sender: { login: pr.author },
    };
  }

  /** Sends one delivery to every webhook (or as told: another id, a wrong secret). */
  async function deliver(
    event: string,
    body: unknown,
    options: { id?: string; secret?: string } = {},
  ): Promise<Delivery[]> {
    const raw = JSON.stringify(body);
    const id = options.id ?? randomUUID();
    return Promise.all(
      hooks.map(async (hook) => {
        const res = await fetch(hook.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": event,
            "x-github-delivery": id,
            "x-hub-signature-256": signPayload(options.secret ?? hook.secret, raw),
          },
          body: raw,
        });
        const text = await res.text();
        return { id, status: res.status, body: text ? JSON.parse(text) : null };
      }),
    );
  }

  const find = (repo: string, number: number) => {
    const pr = pulls.get(`${repo}#${number}`);
    if (!pr) throw new Error(`No pull request ${repo}#${number}`);
    return pr;
  };

  return {
    statuses,
    /** Whether `repo` (`owner/name`) holds `sha` as a pull request's head commit. */
    holds: (repo: string, sha: string) => heads.get(repo)?.has(sha) ?? false,
    /** The commit a pull request's head branch points at in its head repository, if any. */
    branchHead: (repo: string, branch: string) =>
      [...pulls.values()].find((pr) => (pr.fork ?? pr.repo) === repo && pr.head === branch)
        ?.headSha ?? null,
    /** The files of a head commit `repo` holds, when its pull request named them. */
    filesAt: (repo: string, sha: string) =>
      (heads.get(repo)?.has(sha) && headFiles.get(sha)) || null,
    addWebhook: (url: string, secret: string) => void hooks.push({ url, secret }),
    /** The body of a pull_request delivery of `pr` (to send it by hand). */
    payload,
    deliver,
    async open(options: PullRequestOptions, deliveryOptions?: { id?: string; secret?: string }) {
      const number = next++;
      const pr: PullRequest = {
        number,
        repo: options.repo,
        base: options.base ?? "main",
        head: options.head ?? `feature-${number}`,
        headSha: pullSha(options.repo, number, 0),
        title: options.title ?? `Change number ${number}`,
        author: options.author ?? "octocat",
        fork: options.fork ?? null,
        pushes: 0,
        state: "open",
      };
      addHead(pr, options.files);
      pulls.set(`${pr.repo}#${number}`, pr);
      return {
        pr,
        deliveries: await deliver("pull_request", payload(pr, "opened"), deliveryOptions),
      };
    },
    /** A new commit on the head branch (with these files): a synchronize delivery. */
    async push(repo: string, number: number, options: { files?: Record<string, string> } = {}) {
      const pr = find(repo, number);
      pr.pushes += 1;
      pr.headSha = pullSha(repo, number, pr.pushes);
      addHead(pr, options.files);
      return { pr, deliveries: await deliver("pull_request", payload(pr, "synchronize")) };
    },
    async close(repo: string, number: number, merged = false) {
      const pr = find(repo, number);
      pr.state = "closed";
      return { pr, deliveries: await deliver("pull_request", payload(pr, "closed", merged)) };
    },
    async reopen(repo: string, number: number) {
      const pr = find(repo, number);
      pr.state = "open";
      return { pr, deliveries: await deliver("pull_request", payload(pr, "reopened")) };
    },
    /** Records POST /repos/{owner}/{repo}/statuses/{sha}. */
    recordStatus(
      owner: string,
      repo: string,
      sha: string,
      raw: unknown,
      authorization: string | null,
    ) {
      const body = (raw ?? {}) as Record<string, string | undefined>;
      if (!["pending", "success", "failure", "error"].includes(body.state ?? "")) return false;
      statuses.push({
        owner,
        repo,
        sha,
        state: body.state!,
        target_url: body.target_url ?? null,
        description: body.description ?? null,
        context: body.context ?? null,
        authorization,
      });
      return true;
    },
  };
}

export type PullRequests = ReturnType<typeof pullRequests>;
