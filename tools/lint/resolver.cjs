// Resolves the project's imports for eslint-plugin-boundaries: `@/x` is `src/x` (tsconfig's
// paths), relative paths as TypeScript's bundler resolution does; packages by Node's rules.
const { existsSync, statSync } = require("node:fs");
const { createRequire } = require("node:module");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const SUFFIXES = ["", ".ts", ".tsx", ".js", ".mjs", ".json", "/index.ts", "/index.tsx"];

function resolveFile(base) {
  for (const suffix of SUFFIXES) {
    const candidate = base + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

exports.interfaceVersion = 2;
exports.resolve = function resolve(source, file) {
  if (source.startsWith("@/")) {
    const found = resolveFile(path.join(ROOT, "src", source.slice(2)));
    return found ? { found: true, path: found } : { found: false };
  }
  if (source.startsWith(".") || source.startsWith("/")) {
    const found = resolveFile(path.resolve(path.dirname(file), source));
    return found ? { found: true, path: found } : { found: false };
  }
  if (source.startsWith("node:")) return { found: true, path: null };
  try {
    return { found: true, path: createRequire(file).resolve(source) };
  } catch {
    return { found: false };
  }
};
