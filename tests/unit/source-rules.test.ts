import { describe, expect, it } from "vitest";
import { sourceRules } from "../../src/schemas/source-rules";
import { checkMode, checkSourceFields } from "../../src/server/services/deployments/source-rules";
import type { DeploymentSource } from "../../src/schemas/deployments";

const sources: DeploymentSource[] = [
  "codehost",
  "external_container",
  "internal_container",
  "internal_source",
  "internal_template",
];

const message = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (error) {
    expect(error).toMatchObject({ code: "bad_request", status: 400 });
    return (error as Error).message;
  }
};

describe("checkMode", () => {
  it("accepts the managed sources in managed mode and only external_container self-hosted", () => {
    for (const source of sources) {
      const managed = message(() => checkMode("managed", source));
      const selfHosted = message(() => checkMode("self_hosted", source));
      if (source === "external_container") {
        expect(managed).toContain("managed");
        expect(selfHosted).toBeNull();
      } else {
        expect(managed).toBeNull();
        expect(selfHosted).toContain("self_hosted");
      }
    }
  });
});

describe("checkSourceFields", () => {
  it("holds contract 5.2's table", () => {
    expect(sourceRules.codehost.required).toEqual([
      "source_config.integration_id",
      "source_config.repo_url",
      "source_revision_config.repo_ref",
      "source_revision_config.graph_config_path",
    ]);
    expect(sourceRules.external_container.allowed.sort()).toEqual([
      "secret_references",
      "source_config.listener_config",
      "source_config.listener_id",
    ]);
    expect(sourceRules.internal_container).toEqual({
      required: ["source_revision_config.image_uri"],
      allowed: [],
    });
  });

  it("accepts each source's required fields plus custom_url, resource_spec, deployment_type", () => {
    for (const source of sources) {
      const values = { source_config: {}, source_revision_config: {} } as Record<
        "source_config" | "source_revision_config",
        Record<string, unknown>
      >;
      for (const field of sourceRules[source].required) {
        const [group, key] = field.split(".") as ["source_config", string];
        values[group][key] = "x";
      }
      Object.assign(values.source_config, {
        custom_url: "https://a.example",
        resource_spec: {},
        deployment_type: "prod",
      });
      expect(message(() => checkSourceFields(source, values, { requireAll: true }))).toBeNull();
    }
  });

  it("names a missing required field only when asked to require all", () => {
    const values = { source_config: {}, source_revision_config: { image_uri: null } };
    expect(
      message(() => checkSourceFields("internal_container", values, { requireAll: true })),
    ).toBe("source_revision_config.image_uri is required for source internal_container.");
    expect(
      message(() => checkSourceFields("internal_container", values, { requireAll: false })),
    ).toBeNull();
  });

  it("names a field the source does not allow; null and absent are fine", () => {
    const base = { source_revision_config: { image_uri: "img" } };
    expect(
      message(() =>
        checkSourceFields(
          "internal_container",
          { ...base, source_config: { install_command: "make" } },
          { requireAll: true },
        ),
      ),
    ).toContain("source_config.install_command");
    expect(
      message(() =>
        checkSourceFields(
          "internal_container",
          { ...base, source_config: { install_command: null, template_id: undefined } },
          { requireAll: true },
        ),
      ),
    ).toBeNull();
    expect(
      message(() =>
        checkSourceFields(
          "internal_container",
          { ...base, secret_references: [{}] },
          { requireAll: true },
        ),
      ),
    ).toContain("secret_references");
    expect(
      message(() =>
        checkSourceFields(
          "internal_container",
          { ...base, secret_references: [] },
          { requireAll: true },
        ),
      ),
    ).toBeNull();
  });
});
