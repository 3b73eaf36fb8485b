/** owner/repo from a repository URL (`<host>/<owner>/<repo>`, optionally ending in .git). */
export function repoOf(repoUrl: string): { owner: string; repo: string } | null {
  let path: string;
  try {
    path = new URL(repoUrl).pathname;
  } catch {
    return null;
  }
  const parts = path.split("/").filter(Boolean);
  if (parts.length < 2) return null;
  return { owner: parts[parts.length - 2]!, repo: parts[parts.length - 1]!.replace(/\.git$/, "") };
}

/** Repository URLs compare without case, a trailing slash or `.git`. */
export function sameRepo(a: string, b: string): boolean {
  const norm = (u: string) =>
    u
      .trim()
      .replace(/\/+$/, "")
      .replace(/\.git$/, "")
      .toLowerCase();
  return norm(a) === norm(b);
}
