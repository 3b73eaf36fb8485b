import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureDebianPackages } from "./debian";

// A real container registry for tests: Debian's `docker-registry` (the Distribution registry
// 2.8) with token authentication against Hangar, and `skopeo` to push to it.

/** Installs Debian's docker-registry and skopeo when missing. */
export function ensureRegistryTools(): void {
  ensureDebianPackages([
    { command: "docker-registry", debianPackage: "docker-registry" },
    { command: "skopeo", debianPackage: "skopeo" },
  ]);
}

export interface RunningRegistry {
  /** `127.0.0.1:<port>`. */
  host: string;
  output: () => string;
  stop: () => Promise<void>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/**
 * `docker-registry serve config.yml` on a loopback port, trusting tokens of Hangar's token
 * server (`realm`) signed with `certificatePem` for `service`, issued by `hangar`.
 */
export async function startRegistry(options: {
  port: number;
  realm: string;
  service: string;
  certificatePem: string;
}): Promise<RunningRegistry> {
  ensureRegistryTools();
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-registry-"));
  const cert = path.join(dir, "hangar.pem");
  writeFileSync(cert, options.certificatePem);
  const config = path.join(dir, "config.yml");
  writeFileSync(
    config,
    [
      "version: 0.1",
      "log:",
      "  level: warn",
      "storage:",
      "  filesystem:",
      `    rootdirectory: ${path.join(dir, "data")}`,
      "http:",
      `  addr: 127.0.0.1:${options.port}`,
      "auth:",
      "  token:",
      `    realm: ${options.realm}`,
      `    service: ${options.service}`,
      "    issuer: hangar",
      `    rootcertbundle: ${cert}`,
      "",
    ].join("\n"),
  );
  let output = "";
  const child: ChildProcess = spawn("docker-registry", ["serve", config], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  for (let i = 0; i < 200 && !(await portOpen(options.port)); i++) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited early:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!(await portOpen(options.port)))
    throw new Error(`docker-registry did not listen:\n${output}`);
  return {
    host: `127.0.0.1:${options.port}`,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => (rmSync(dir, { recursive: true, force: true }), resolve());
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
      }),
  };
}
