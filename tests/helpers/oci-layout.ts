import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { tarGz } from "./tarball";

// A tiny OCI image layout (one layer, a config, a manifest, index.json, oci-layout) that
// skopeo can push: `oci:<dir>:<tag>`.

const sha256 = (data: Buffer) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

/** Writes the layout into a new folder; returns it and the manifest's digest. */
export function writeOciLayout(tag: string, content: string): { dir: string; digest: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-oci-"));
  const blobs = path.join(dir, "blobs", "sha256");
  mkdirSync(blobs, { recursive: true });
  const blob = (data: Buffer) => {
    const digest = sha256(data);
    writeFileSync(path.join(blobs, digest.slice("sha256:".length)), data);
    return { digest, size: data.length };
  };
  const layerGz = tarGz([{ path: "agent.txt", content }]);
  const layer = blob(layerGz);
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: "amd64",
        os: "linux",
        config: { Cmd: ["/bin/true"] },
        rootfs: { type: "layers", diff_ids: [sha256(gunzipSync(layerGz))] },
      }),
    ),
  );
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        config: { mediaType: "application/vnd.oci.image.config.v1+json", ...config },
        layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", ...layer }],
      }),
    ),
  );
  writeFileSync(
    path.join(dir, "index.json"),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: "application/vnd.oci.image.manifest.v1+json",
          ...manifest,
          annotations: { "org.opencontainers.image.ref.name": tag },
        },
      ],
    }),
  );
  writeFileSync(path.join(dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  return { dir, digest: manifest.digest };
}
