import { describe, expect, it } from "vitest";
import {
  changesThatCutRevision,
  sameJson,
  settingChanges,
  type RevisionInputs,
} from "../../src/schemas/revision-rules";

const base: RevisionInputs<{ name: string; value: string }> = {
  source: "internal_container",
  source_config: { resource_spec: { cpu: 1, cpu_limit: 2 }, install_command: null },
  source_revision_config: { image_uri: "registry.example.com/a:1", repo_ref: null },
  secrets: [{ name: "A", value: "********" }],
};
const draft = (patch: Partial<typeof base>) => ({ ...base, ...patch });

describe("changesThatCutRevision", () => {
  it("finds nothing when nothing changed", () => {
    expect(changesThatCutRevision(base, draft({}))).toEqual([]);
  });

  it("names a changed source_revision_config field", () => {
    const changed = draft({ source_revision_config: { image_uri: "registry.example.com/a:2" } });
    expect(changesThatCutRevision(base, changed)).toEqual(["source_revision_config.image_uri"]);
  });

  it("treats a missing member as null", () => {
    expect(
      changesThatCutRevision(
        base,
        draft({ source_revision_config: { image_uri: base.source_revision_config.image_uri } }),
      ),
    ).toEqual([]);
  });

  it("names resource_spec, install_command and build_command", () => {
    const changed = draft({
      source_config: { resource_spec: { cpu: 2 }, install_command: "npm ci", build_command: "x" },
    });
    expect(changesThatCutRevision(base, changed)).toEqual([
      "source_config.resource_spec",
      "source_config.install_command",
      "source_config.build_command",
    ]);
  });

  it("compares resource specs with their default limits filled in", () => {
    // cpu 1 with no limit means cpu_limit 2, which is what is stored.
    const same = draft({ source_config: { ...base.source_config, resource_spec: { cpu: 1 } } });
    expect(changesThatCutRevision(base, same)).toEqual([]);
    const nulls = draft({
      source_config: {
        ...base.source_config,
        resource_spec: { cpu: 1, cpu_limit: 2, memory_mb: null },
      },
    });
    expect(changesThatCutRevision(base, nulls)).toEqual([]);
  });

  it("counts a different set of secrets, by name or value", () => {
    expect(changesThatCutRevision(base, draft({ secrets: [] }))).toEqual(["secrets"]);
    expect(changesThatCutRevision(base, draft({ secrets: [{ name: "A", value: "new" }] }))).toEqual(
      ["secrets"],
    );
    expect(
      changesThatCutRevision(base, draft({ secrets: [{ name: "B", value: "********" }] })),
    ).toEqual(["secrets"]);
  });

  it("uses the comparator it is given for secrets", () => {
    const changed = draft({ secrets: [{ name: "A", value: "other" }] });
    expect(changesThatCutRevision(base, changed, () => true)).toEqual([]);
  });

  it("counts a different revision source", () => {
    expect(changesThatCutRevision(base, draft({ source: "codehost" }))).toEqual([
      "revision_source",
    ]);
  });
});

describe("settingChanges", () => {
  it("names changed settings, which never cut a revision", () => {
    const current = { build_on_push: false, custom_url: "https://a.example.com" };
    expect(settingChanges(current, { ...current })).toEqual([]);
    expect(settingChanges(current, { build_on_push: true, custom_url: null })).toEqual([
      "source_config.build_on_push",
      "source_config.custom_url",
    ]);
    expect(
      changesThatCutRevision(base, draft({})).concat(
        settingChanges(current, { ...current, listener_config: { k8s_namespace: "x" } }),
      ),
    ).toEqual(["source_config.listener_config"]);
  });
});

describe("sameJson", () => {
  it("ignores key order and null members, not array order", () => {
    expect(sameJson({ a: 1, b: { c: null, d: 2 } }, { b: { d: 2 }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson(null, undefined)).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
  });
});
