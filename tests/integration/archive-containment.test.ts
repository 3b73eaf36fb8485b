import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sampleProject, type TarEntry } from "../helpers/tarball";
import { deployArchive } from "../helpers/uploads";

// Issue 23, findings 1 and 2, as the attacker sent them: an editor key, the deploy client's
// calls, an archive of links. The server's data folder is checked on disk afterwards.

let tenant: Tenant;
const dataDir = () => inject("testEnv").HANGAR_DATA_DIR!;
const PLANTED = `TOPSECRET-${randomUUID()}`;

beforeAll(async () => {
  tenant = await createTenant();
  // Stands in for encryption.key / auth.secret: a file of the server's, beside the builds.
  writeFileSync(path.join(dataDir(), "planted-secret.txt"), PLANTED);
});

const deploy = (name: string, entries: TarEntry[]) =>
  deployArchive(tenant.keys.editor, name, entries);

async function buildLogText(deploymentId: string, revisionId: string): Promise<string> {
  const res = await api(`/v1/projects/${deploymentId}/revisions/${revisionId}/build_logs`, {
    key: tenant.keys.viewer,
    method: "POST",
    body: { order: "asc", limit: 1000 },
  });
  expect(res.status).toBe(200);
  return JSON.stringify(res.body);
}

describe("an archive of links", () => {
  it("cannot write outside its build folder (the chain through `a -> .`)", async () => {
    const tmpName = `hangar-escape-${randomUUID()}`;
    const revision = await deploy("contain-write", [
      ...sampleProject(),
      { path: "a", type: "SymbolicLink", linkpath: "." },
      { path: "a/x", type: "SymbolicLink", linkpath: "../planted-secret.txt" },
      {
        path: `${Array.from({ length: 16 }, () => "a").join("/")}/y`,
        type: "SymbolicLink",
        linkpath: `${"../".repeat(16)}tmp/${tmpName}`,
      },
      { path: "x", content: "overwritten" },
      { path: "y", content: "planted" },
    ]);
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toBe("Source archive: a/x: its path passes through the link a");
    // Where the links pointed: the server's file and a file beside the build folders, and /tmp.
    expect(readFileSync(path.join(dataDir(), "planted-secret.txt"), "utf8")).toBe(PLANTED);
    expect(existsSync(path.join(dataDir(), "builds", "planted-secret.txt"))).toBe(false);
    expect(existsSync(path.join("/tmp", tmpName))).toBe(false);
  });

  it("cannot read a file of the server's into the build's messages", async () => {
    for (const [name, entries] of [
      [
        "contain-read-direct",
        [
          ...sampleProject().filter((e) => e.path !== "langgraph.json"),
          { path: "langgraph.json", type: "SymbolicLink", linkpath: "../../planted-secret.txt" },
        ],
      ],
      [
        "contain-read-chain",
        [
          ...sampleProject().filter((e) => e.path !== "langgraph.json"),
          { path: "d", type: "SymbolicLink", linkpath: "." },
          { path: "up", type: "SymbolicLink", linkpath: "d/.." },
          { path: "langgraph.json", type: "SymbolicLink", linkpath: "up/../planted-secret.txt" },
        ],
      ],
      [
        "contain-read-hardlink",
        [
          ...sampleProject().filter((e) => e.path !== "langgraph.json"),
          { path: "out", type: "SymbolicLink", linkpath: "../../planted-secret.txt" },
          { path: "langgraph.json", type: "Link", linkpath: "out" },
        ],
      ],
    ] as Array<[string, TarEntry[]]>) {
      const revision = await deploy(name, entries);
      expect(revision.status, name).toBe("BUILD_FAILED");
      expect(revision.statusMessage, name).toMatch(/^Source archive: [^:]+: /);
      expect(revision.statusMessage, name).not.toContain("TOPSECRET");
      expect(await buildLogText(revision.deploymentId, revision.id), name).not.toContain(
        "TOPSECRET",
      );
    }
  });
});
