import { StepFailure } from "../../drivers/types";

// Reads BuildKit's plain progress output (`--progress=plain`) as it streams, to say which step
// failed and how: each step is a vertex `#<n>`, named by its first line (`#7 [2/4] RUN ...`),
// its commands' output is `#<n> <seconds> <text>`, and a failure is `#<n> ERROR: <why>`.

/** Lines kept per step and of the whole log, for a failure's message. */
export const LAST_LINES = 20;

const VERTEX = /^#(\d+) (.*)$/;
const TIMED = /^\d+\.\d+ (.*)$/;

function keepLast(lines: string[], line: string): void {
  lines.push(line);
  if (lines.length > LAST_LINES) lines.shift();
}

export class BuildkitOutput {
  private readonly names = new Map<string, string>();
  private readonly output = new Map<string, string[]>();
  private readonly tail: string[] = [];
  private failed: { vertex: string; error: string } | null = null;
  private solveError: string | null = null;

  add(line: string): void {
    keepLast(this.tail, line);
    const vertex = VERTEX.exec(line);
    if (!vertex) {
      if (line.startsWith("error: ")) this.solveError = line.slice("error: ".length);
      return;
    }
    const [, id, rest] = vertex as unknown as [string, string, string];
    if (!this.names.has(id)) {
      this.names.set(id, rest);
      this.output.set(id, []);
      return;
    }
    if (rest.startsWith("ERROR: ")) this.failed ??= { vertex: id, error: rest.slice(7) };
    const timed = TIMED.exec(rest);
    if (timed) keepLast(this.output.get(id)!, timed[1]!);
  }

  /** The failure to report when the builder exited with `exitCode`. */
  failure(exitCode: number | undefined): StepFailure {
    if (this.failed) {
      const name = this.names.get(this.failed.vertex)!;
      const lines = this.output.get(this.failed.vertex)!;
      return new StepFailure(
        `Build step ${name} failed: ${this.failed.error}`,
        lines.length ? [`Last lines of ${name}:`, ...lines.map((l) => `  ${l}`)] : [],
      );
    }
    const why = this.solveError ?? `the builder exited with code ${exitCode ?? "unknown"}`;
    return new StepFailure(`The build failed: ${why}`, [
      "Last lines of the build:",
      ...this.tail.map((l) => `  ${l}`),
    ]);
  }
}
