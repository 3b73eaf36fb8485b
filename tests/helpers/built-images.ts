import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Parser } from "tar";

// What a build produced, read the way an outsider would: the image copied out of the registry
// (`skopeo copy ... dir:`) and its layer tars listed; and the builder's processes on this machine.

export interface CopiedImage {
  /** sha256 of the manifest as the registry serves it. */
  digest: string;
  /** Every path in every layer, with its bytes (regular files). */
  files: Map<string, Buffer>;
  /** Every layer, unpacked, as one buffer (to look for a value anywhere). */
  raw: Buffer;
}

function listLayer(gzipped: Buffer, files: Map<string, Buffer>): Buffer {
  const tar = gunzipSync(gzipped);
  const parser = new Parser({
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => files.set(entry.path.replace(/^\.\//, ""), Buffer.concat(chunks)));
    },
  });
  parser.end(tar);
  return tar;
}

/** Copies `image` (e.g. `host/repo@sha256:...`) out of a plain-HTTP registry and reads its layers. */
export function copyImage(image: string, credentials: string): CopiedImage {
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-image-"));
  try {
    const copy = spawnSync(
      "skopeo",
      [
        "--insecure-policy",
        "copy",
        "--src-tls-verify=false",
        "--src-creds",
        credentials,
        `docker://${image}`,
        `dir:${dir}`,
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (copy.status !== 0) throw new Error(`skopeo copy failed:\n${copy.stdout}${copy.stderr}`);
    const manifestBytes = readFileSync(path.join(dir, "manifest.json"));
    const manifest = JSON.parse(manifestBytes.toString("utf8")) as {
      layers: { digest: string }[];
    };
    const files = new Map<string, Buffer>();
    const raw = manifest.layers.map((layer) =>
      listLayer(readFileSync(path.join(dir, layer.digest.replace(/^sha256:/, ""))), files),
    );
    return {
      digest: `sha256:${createHash("sha256").update(manifestBytes).digest("hex")}`,
      files,
      raw: Buffer.concat(raw),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Live processes whose command line contains `marker`, with their process group. */
export function processesWith(marker: string): { pid: number; pgid: number; cmd: string }[] {
  const found: { pid: number; pgid: number; cmd: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ");
      if (!cmd.includes(marker)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, , pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z") found.push({ pid: Number(name), pgid: Number(pgid), cmd });
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Live processes of a process group (zombies left for their parent to reap do not count). */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(group) === pgid && state !== "Z") members.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return members;
}
