// The server's garbage-collection pauses, read from its `--trace-gc` output: a pause stops
// every request in flight, so the worst pauses in a window are a floor under its p99.

export interface GcPauses {
  /** Young-generation collections (scavenges): count and pause times in ms, sorted. */
  minor: number[];
  /** Full collections (mark-compact): pause times in ms, sorted. */
  major: number[];
}

// V8 prints e.g. "Scavenge 107.4 (270.4) -> 95.5 (270.4) MB, 5.05 / 0.06 ms ..." (pause first).
const LINE = /(Scavenge|Mark-Compact)\b[^\n]*?MB, ([\d.]+) \/ [\d.]+ ms/g;

/** The pauses in a piece of the server's output. */
export function gcPauses(output: string): GcPauses {
  const minor: number[] = [];
  const major: number[] = [];
  for (const [, kind, ms] of output.matchAll(LINE))
    (kind === "Scavenge" ? minor : major).push(Number(ms));
  return { minor: minor.sort((a, b) => a - b), major: major.sort((a, b) => a - b) };
}

/** Pauses of several windows together. */
export function joinPauses(parts: GcPauses[]): GcPauses {
  return {
    minor: parts.flatMap((p) => p.minor).sort((a, b) => a - b),
    major: parts.flatMap((p) => p.major).sort((a, b) => a - b),
  };
}

/** "GC 12.3 ms per 100 requests, worst pause 41.0 ms (scavenge), 2 mark-compacts". */
export function describePauses(p: GcPauses, requests: number): string {
  const total = [...p.minor, ...p.major].reduce((t, ms) => t + ms, 0);
  const worstMinor = p.minor.at(-1) ?? 0;
  const worstMajor = p.major.at(-1) ?? 0;
  const worst =
    worstMajor > worstMinor
      ? `${worstMajor.toFixed(1)} (mark-compact)`
      : `${worstMinor.toFixed(1)} (scavenge)`;
  return `GC ${((total * 100) / requests).toFixed(1)} ms per 100 requests, worst pause ${worst} ms, ${p.major.length} mark-compacts`;
}
