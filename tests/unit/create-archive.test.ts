import { describe, expect, it } from "vitest";
import { folderFiles, isTarGz } from "../../src/components/create/archive";
import { createBody, createDefaults, sourceOf } from "../../src/components/create/create-model";

const file = (name: string) => new File(["x"], name);

describe("the create forms' archive and body", () => {
  it("packs a folder's contents at the root, leaving out version control, dependencies and caches", () => {
    const kept = folderFiles(
      [
        "my-agent/langgraph.json",
        "my-agent/src/agent.py",
        "my-agent/.env",
        "my-agent/.git/HEAD",
        "my-agent/node_modules/x/index.js",
        "my-agent/src/__pycache__/agent.pyc",
        "my-agent/.venv/bin/python",
      ].map((path) => ({ path, file: file(path) })),
    );
    expect(kept.map((f) => f.path)).toEqual(["langgraph.json", "src/agent.py", ".env"]);
  });

  it("takes gzipped tars only", () => {
    expect(isTarGz("agent.tar.gz")).toBe(true);
    expect(isTarGz("agent.TGZ")).toBe(true);
    expect(isTarGz("agent.zip")).toBe(false);
  });

  it("creates an upload with no revision config: the archive's patch cuts revision 1", () => {
    const values = { ...createDefaults("upload"), name: "agent" };
    expect(createBody(values, sourceOf("upload", "managed"))).toMatchObject({
      source: "internal_source",
      source_revision_config: {},
    });
    expect(sourceOf("image", "self_hosted")).toBe("external_container");
  });
});
