import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { create } from "tar";

// The prepared build folder as a gzipped tar (links kept as links, never followed), with the
// SHA-256 of the bytes as they stream, so the build pod can check what it downloaded.

export interface PackedContext {
  archive: Readable;
  /** The hex SHA-256 of every byte `archive` gave; complete once it has ended. */
  sha256(): string;
}

export function packContext(dir: string): PackedContext {
  const hash = createHash("sha256");
  let digest: string | null = null;
  const pack = create({ gzip: true, cwd: dir, portable: true }, ["."]);
  async function* hashed() {
    for await (const chunk of pack) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    digest = hash.digest("hex");
  }
  return {
    archive: Readable.from(hashed(), { objectMode: false }),
    sha256() {
      if (digest === null) throw new Error("The build context has not been packed yet");
      return digest;
    },
  };
}
