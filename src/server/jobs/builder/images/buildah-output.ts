import { StepFailure } from "../../drivers/types";

// What a failed buildah run said, as the revision's status message: the step that failed
// (`STEP 4/6: RUN ...`), buildah's reason and the step's last lines of output. Only what those
// need is kept while buildah runs (BuildahOutput), never all of its output.

const STEP = /^(?:\[\d+\/\d+\] )?STEP \d+\/\d+: /;
/** buildah's own words around a failure, not the step's output. */
const NOISE = /^(?:Error: |error |subprocess exited |--> |Trying to pull |Getting image source )/;
const TAIL_LINES = 10;
const MAX_LINE = 300;

/** Lines kept after the last step's line: more than the tail, as noise lines are left out of it. */
const KEPT_LINES = 50;

/** The last `STEP` line, the lines since it (the last KEPT_LINES) and the last `Error: ` line. */
export class BuildahOutput {
  private step: string | null = null;
  private error: string | null = null;
  private tail: string[] = [];

  add(line: string): void {
    if (STEP.test(line)) {
      this.step = line;
      this.tail = [];
      return;
    }
    if (line.startsWith("Error: ")) this.error = line;
    this.tail.push(line);
    if (this.tail.length > 2 * KEPT_LINES) this.tail = this.tail.slice(-KEPT_LINES);
  }

  /** What buildFailure and pushFailure read, in the order buildah printed it. */
  lines(): string[] {
    const tail = this.tail.slice(-KEPT_LINES);
    const error = this.error !== null && !tail.includes(this.error) ? [this.error] : [];
    return [...(this.step !== null ? [this.step] : []), ...tail, ...error];
  }
}

const clip = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);

/** buildah's last `Error: ...` line without its prefix (and without the step it repeats). */
function reasonOf(lines: string[]): string | null {
  const error = lines.findLast((line) => line.startsWith("Error: "));
  if (!error) return null;
  return error.slice("Error: ".length).replace(/^building at STEP "[\s\S]*?": (?=[^"]*$)/, "");
}

const tailOf = (lines: string[]) =>
  lines
    .filter((line) => line.trim() && !NOISE.test(line))
    .slice(-TAIL_LINES)
    .map((line) => `  ${clip(line)}`);

export function buildFailure(lines: string[]): StepFailure {
  const stepAt = lines.findLastIndex((line) => STEP.test(line));
  const step = stepAt >= 0 ? clip(lines[stepAt]!.replace(/^\[\d+\/\d+\] /, "")) : "The build";
  const reason = reasonOf(lines) ?? "buildah failed";
  const tail = tailOf(lines.slice(stepAt + 1));
  return new StepFailure(
    `${step} failed (${clip(reason)})${tail.length ? `. Its last lines:\n${tail.join("\n")}` : "."}`,
  );
}

export function pushFailure(ref: string, lines: string[]): StepFailure {
  const reason = reasonOf(lines) ?? lines.at(-1) ?? "buildah failed";
  return new StepFailure(`Pushing ${ref} failed: ${clip(reason)}`);
}

/** A base or `--from` image that could not be pulled with the build's own credentials. */
export function pullFailure(image: string, lines: string[]): StepFailure {
  // The registry's reasons follow buildah's `Error:` line ("errors:", then one per line).
  const at = lines.findLastIndex((line) => line.startsWith("Error: "));
  const reason =
    at >= 0
      ? [lines[at]!.slice("Error: ".length), ...lines.slice(at + 1)]
          .map((line) => line.trim())
          .filter(Boolean)
          .join(" ")
      : (lines.at(-1) ?? "buildah failed");
  const denied = /denied|unauthorized|insufficient.scope|authentication required/i.test(reason);
  return new StepFailure(
    `Pulling ${image} failed: ${clip(reason)}${denied ? " (a build pulls with its own workspace's credentials: only that workspace's repositories of Hangar's registry, and public images)" : ""}`,
  );
}
