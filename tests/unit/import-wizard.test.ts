import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/components/import/env-paste";
import {
  configureDefaults,
  configureSchema,
  createBody,
  dnsLabel,
} from "../../src/components/import/wizard-model";
import { createDeploymentBody, DEPLOYMENT_NAME } from "../../src/schemas/deployments";

const repo = {
  host_integration_id: "0190a0a0-0000-7000-8000-000000000001",
  id: 1,
  name: "Eval_Harness",
  owner: "beta-labs",
  url: "http://codehost.local/beta-labs/Eval_Harness",
  default_branch: "dev",
};

describe("dnsLabel", () => {
  it.each([
    ["Eval_Harness", "eval-harness"],
    ["--My..Repo--", "my-repo"],
    ["___", "agent"],
    ["a".repeat(70), "a".repeat(63)],
    [`${"a".repeat(62)}-b`, "a".repeat(62)],
  ])("%s -> %s", (input, out) => {
    expect(dnsLabel(input)).toBe(out);
    expect(DEPLOYMENT_NAME.test(dnsLabel(input))).toBe(true);
  });
});

describe("parseEnv", () => {
  it("reads KEY=value lines, export, quotes and comments", () => {
    expect(
      parseEnv(
        "# comment\n\nexport A=1\nB=\"two words\"\nC='x#y'\nD=plain # trailing\nnot a line\nE=\n",
      ),
    ).toEqual([
      { name: "A", value: "1" },
      { name: "B", value: "two words" },
      { name: "C", value: "x#y" },
      { name: "D", value: "plain" },
      { name: "E", value: "" },
    ]);
  });
});

describe("the configure form", () => {
  it("defaults to a body the API schema accepts", () => {
    const config = configureSchema.parse(configureDefaults(repo));
    expect(config).toMatchObject({
      name: "eval-harness",
      repo_ref: "dev",
      graph_config_path: "langgraph.json",
    });
    const body = createDeploymentBody.parse(createBody(repo, config));
    expect(body.source_config.previews).toBeUndefined();
    const withPreviews = createDeploymentBody.parse(
      createBody(repo, { ...config, previews: true }),
    );
    expect(withPreviews.source_config.previews).toEqual({ enabled: true });
    expect(body.source_config.resource_spec).toMatchObject({
      cpu: 1,
      memory_mb: 1024,
      min_scale: 1,
      max_scale: 1,
    });
  });

  it("applies the create rules that span fields", () => {
    const base = configureDefaults(repo);
    const issues = (v: typeof base) =>
      configureSchema.safeParse(v).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(
      issues({ ...base, deployment_type: "prod", resource_spec: { min_scale: 0, max_scale: 1 } }),
    ).toEqual(["resource_spec.min_scale"]);
    expect(issues({ ...base, repo_ref: "refs/tags/v1" })).toEqual(["build_on_push"]);
    expect(issues({ ...base, build_on_push: false, previews: true })).toEqual(["previews"]);
    expect(issues({ ...base, resource_spec: { min_scale: 3, max_scale: 1 } })).toEqual([
      "resource_spec.max_scale",
    ]);
    expect(issues({ ...base, secrets: [{ name: "1BAD", value: "x" }] })).toEqual([
      "secrets.0.name",
    ]);
  });
});
