import { StepFailure } from "../../drivers/types";

// The images a Dockerfile reads: each FROM that is not an earlier stage, and each `--from=` of
// COPY, ADD and RUN --mount that names no stage. A build pulls exactly these through the
// registry with its own credentials before its steps run (they have no network but the egress
// proxy), so an image the workspace may not pull is refused however it is named. A name built
// from a variable is resolved from the ARGs declared above it; one that cannot be is refused.

const SCRATCH = "scratch";

/** Instructions with continuation lines joined; comments and parser directives dropped. */
function instructions(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!current && (line.startsWith("#") || !line)) continue;
    if (line.endsWith("\\")) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim()) out.push(current.trim());
    current = "";
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::[-+][^}]*)?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

function expand(value: string, args: Map<string, string>): string {
  return value.replace(VARIABLE, (_whole, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const found = args.get(name);
    if (found === undefined)
      throw new StepFailure(
        `The Dockerfile names an image through $${name}, which has no value here: name the image itself (dockerfile_lines).`,
      );
    return found;
  });
}

/** `--from=x` (or `from=x` inside a --mount) of an instruction's flags. */
function fromFlags(rest: string): string[] {
  const found: string[] = [];
  for (const flag of rest.split(/\s+/)) {
    if (!flag.startsWith("--")) break;
    const direct = /^--from=(.+)$/.exec(flag);
    if (direct) found.push(direct[1]!);
    const mount = /^--mount=(.+)$/.exec(flag);
    if (mount)
      for (const option of mount[1]!.split(",")) {
        const from = /^from=(.+)$/.exec(option);
        if (from) found.push(from[1]!);
      }
  }
  return found;
}

export function imagesOf(dockerfile: string): string[] {
  const stages = new Set<string>();
  const args = new Map<string, string>();
  const images: string[] = [];
  let stageCount = 0;
  const note = (name: string) => {
    const lowered = name.toLowerCase();
    if (lowered === SCRATCH || stages.has(lowered) || /^\d+$/.test(name)) return;
    if (!images.includes(name)) images.push(name);
  };
  for (const instruction of instructions(dockerfile)) {
    const [keyword = "", ...words] = instruction.split(/\s+/);
    const rest = instruction.slice(keyword.length).trim();
    switch (keyword.toUpperCase()) {
      case "ARG":
        for (const word of words) {
          const [name, ...value] = word.split("=");
          if (name && value.length) args.set(name, value.join("=").replace(/^"(.*)"$/, "$1"));
        }
        break;
      case "FROM": {
        const operands = words.filter((w) => !w.startsWith("--"));
        const image = expand(operands[0] ?? "", args);
        note(image);
        const alias = operands[1]?.toUpperCase() === "AS" ? operands[2] : undefined;
        if (alias) stages.add(alias.toLowerCase());
        stageCount++;
        break;
      }
      case "COPY":
      case "ADD":
      case "RUN":
        for (const from of fromFlags(rest)) {
          const name = expand(from, args);
          if (/^\d+$/.test(name) && Number(name) < stageCount) continue;
          note(name);
        }
        break;
      case "ONBUILD":
        break;
    }
  }
  return images;
}
