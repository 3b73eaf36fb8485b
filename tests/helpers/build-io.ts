import type { BuildIo, ImageTarget } from "../../src/server/jobs/drivers/types";

/** A build's io for driver tests: the lines it logged as it went, never aborted unless asked. */
export function testIo(target: ImageTarget | null = null, signal = new AbortController().signal) {
  const logged: string[] = [];
  const io: BuildIo = { log: (lines) => void logged.push(...lines), signal, target };
  return { io, logged };
}
