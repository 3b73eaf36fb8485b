import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ensureDebianPackages } from "./debian";

// The reference platform's Python tracing SDK (PyPI `langsmith`), unmodified, for the tests that
// trace into Hangar with it: a virtualenv of its own under node_modules/.cache, made once with
// pip and reused while it holds this version.

/** The SDK release the tests run against. */
export const LANGSMITH_PY_VERSION = "0.14.0";

export const PYTHON_SDK_VENV = path.resolve(
  import.meta.dirname,
  "../node_modules/.cache/hangar-langsmith-py",
);

const venvPython = path.join(PYTHON_SDK_VENV, "bin", "python");
const run = promisify(execFile);

/** The venv's `langsmith` version, or null when the venv (or its interpreter) is unusable. */
async function installedVersion(): Promise<string | null> {
  if (!existsSync(venvPython)) return null;
  try {
    const { stdout } = await run(venvPython, [
      "-c",
      "import importlib.metadata as m; print(m.version('langsmith'))",
    ]);
    return stdout.trim();
  } catch {
    return null;
  }
}

/** Runs a command; on failure throws with everything it printed. */
async function step(what: string, file: string, args: string[], env?: NodeJS.ProcessEnv) {
  try {
    await run(file, args, { env, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    // execFile's message is the command and its stderr; stdout holds the rest of pip's account.
    const e = error as { stdout?: string; message: string };
    throw new Error(`${what} failed: ${e.message}\n${e.stdout ?? ""}`, { cause: error });
  }
}

/** Makes (or reuses) the virtualenv with `langsmith==LANGSMITH_PY_VERSION`; its python's path. */
export async function ensurePythonSdk(): Promise<string> {
  if ((await installedVersion()) === LANGSMITH_PY_VERSION) return venvPython;
  ensureDebianPackages([
    { command: "python3", debianPackage: "python3" },
    {
      // Debian's python3 makes venvs only with python3-venv, which ships its ensurepip.
      command: "python3",
      debianPackage: "python3-venv",
      installed: () => spawnSync("python3", ["-c", "import ensurepip, venv"]).status === 0,
    },
  ]);
  rmSync(PYTHON_SDK_VENV, { recursive: true, force: true });
  mkdirSync(path.dirname(PYTHON_SDK_VENV), { recursive: true });
  console.log(`Installing langsmith==${LANGSMITH_PY_VERSION} (pip) into ${PYTHON_SDK_VENV}...`);
  await step("python3 -m venv", "python3", ["-m", "venv", PYTHON_SDK_VENV]);
  await step(
    `pip install langsmith==${LANGSMITH_PY_VERSION}`,
    venvPython,
    ["-m", "pip", "install", "--no-input", `langsmith==${LANGSMITH_PY_VERSION}`],
    // An index that cannot be reached (a machine with a local mirror as the extra index) costs
    // pip's backoff retries for every package, minutes in all; a setting of one's own wins.
    { ...process.env, PIP_RETRIES: process.env.PIP_RETRIES ?? "0" },
  );
  const version = await installedVersion();
  if (version !== LANGSMITH_PY_VERSION)
    throw new Error(`pip installed langsmith ${version}, not ${LANGSMITH_PY_VERSION}`);
  return venvPython;
}
