import type { ArchiveOptions, RepositoryArchive } from "./archive";

// What Hangar needs from a code host, behind one interface (tests point it at a local server).

export type CodehostCredentials =
  | { kind: "token"; token: string }
  | { kind: "app"; appId: string; privateKey: string; installationId: string };

export interface CodehostRepository {
  id: number;
  name: string;
  owner: string;
  url: string;
  defaultBranch: string;
}

/** A connection check's outcome: `credentials` when the host refused them, `host` otherwise. */
export type AccessCheck =
  { ok: true } | { ok: false; cause: "credentials" | "host"; message: string };

export interface ListingOptions {
  /** Aborted when the caller no longer wants the answer (the HTTP client went away). */
  signal?: AbortSignal;
}

/** A commit status (the code host's "statuses" API): what Hangar says about a commit. */
export interface CommitStatus {
  state: "pending" | "success" | "failure" | "error";
  /** Where the status links to (the preview's URL), or none. */
  targetUrl: string | null;
  /** At most 140 characters: the code host cuts longer ones. */
  description: string;
  context: string;
}

export interface CodehostClient {
  /** Every repository the credentials can see, all pages (bounded; see LISTING_LIMITS). */
  listRepositories(options?: ListingOptions): Promise<CodehostRepository[]>;
  /** Whether the code host answers and accepts the credentials: one small listing page. */
  checkAccess(): Promise<AccessCheck>;
  /** The commit sha a branch points at, or null when the repository or branch does not exist. */
  getBranchCommit(owner: string, repo: string, branch: string): Promise<string | null>;
  /** Whether a file exists at `path` on `ref`. */
  fileExists(owner: string, repo: string, path: string, ref: string): Promise<boolean>;
  /**
   * Sets a commit status on `sha` (POST /repos/{owner}/{repo}/statuses/{sha}); the code host
   * shows the last one per context, so callers send a commit's statuses in order
   * (previews/status-outbox.ts). Throws AppError (502) when the code host fails.
   */
  createCommitStatus(owner: string, repo: string, sha: string, status: CommitStatus): Promise<void>;
  /**
   * The repository's gzipped tar at a commit (the tarball endpoint and its redirects, see
   * archive.ts). Throws ArchiveFailure when the answers rule it out, AppError otherwise.
   */
  downloadArchive(
    owner: string,
    repo: string,
    sha: string,
    options: ArchiveOptions,
  ): Promise<RepositoryArchive>;
}
