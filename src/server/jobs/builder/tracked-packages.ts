import path from "node:path";
import { readTextInside } from "./contained-path";

// The deploy client's tracked_packages: what the uploaded project asks for each of them, read
// from its dependency files, so the build log reports it.

const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

/** A dependency file's text; none when it is missing, too large or leads out (a link). */
async function text(root: string, rel: string): Promise<string | null> {
  return readTextInside(root, rel, 1024 * 1024).catch(() => null);
}

/** Python requirement lines (`name[extra]>=1.0`) from requirements.txt and pyproject.toml. */
function pythonRequirements(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of source.matchAll(
    /["']?([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*([<>=!~][^"'\n;]*)?["']?/g,
  )) {
    const [, name, , spec] = match;
    if (name && spec && /^(==|>=|<=|~=|!=|<|>)\s*[\w.*]/.test(spec.trim()))
      found.set(normalize(name), spec.trim());
  }
  return found;
}

export async function trackedPackageLines(
  root: string,
  dir: string,
  packages: string[],
): Promise<string[]> {
  if (packages.length === 0) return [];
  const requirements = new Map<string, { spec: string; file: string }>();
  for (const file of ["requirements.txt", "pyproject.toml"]) {
    const rel = path.posix.join(dir, file);
    const source = await text(root, rel);
    for (const [name, spec] of source ? pythonRequirements(source) : [])
      if (!requirements.has(name)) requirements.set(name, { spec, file: rel });
  }
  const packageJson = await text(root, path.posix.join(dir, "package.json"));
  if (packageJson) {
    try {
      const manifest = JSON.parse(packageJson) as Record<
        string,
        Record<string, string> | undefined
      >;
      for (const group of ["dependencies", "devDependencies"])
        for (const [name, spec] of Object.entries(manifest[group] ?? {}))
          if (!requirements.has(normalize(name)))
            requirements.set(normalize(name), { spec, file: path.posix.join(dir, "package.json") });
    } catch {
      // An unreadable package.json reports nothing; the graph config check names real problems.
    }
  }
  return packages.map((name) => {
    const found = requirements.get(normalize(name));
    return found
      ? `Tracked package ${name}: ${found.spec} (${found.file})`
      : `Tracked package ${name}: no version constraint in the project's dependency files`;
  });
}
