import { describe, expect, it } from "vitest";
import { fieldLabel, issueWords, messageWords, withUnit } from "../../src/schemas/field-words";
import { resourceSpec } from "../../src/schemas/resource-spec";
import { sourceRevisionConfigInput } from "../../src/schemas/deployments";
import { formResolver } from "../../src/components/ui/form-resolver";
import { configureDefaults, configureSchema } from "../../src/components/import/wizard-model";

/** What the dashboard says for a resource spec the API's schema refuses. */
const wordsFor = (spec: object) => {
  const result = resourceSpec.safeParse(spec);
  if (result.success) throw new Error("expected a refusal");
  return result.error.issues.map((issue) => {
    // The dashboard's forms see the schema's own texts for custom rules: rephrased afterwards.
    const words = issueWords({ ...issue, path: ["source_config", "resource_spec", ...issue.path] });
    return words;
  });
};

describe("field words", () => {
  it("labels API paths", () => {
    expect(fieldLabel("source_config.resource_spec.max_scale")).toBe("Maximum replicas");
    expect(fieldLabel("source_config.resource_spec.queue_cpu_limit")).toBe(
      "Queue workers CPU limit",
    );
    expect(fieldLabel("source_config.resource_spec.db_storage_gi")).toBe("Database storage");
    expect(fieldLabel(["body", "patch", "source_revision_config", "image_uri"])).toBe("Image");
    expect(fieldLabel("secrets.2.value")).toBe("Secret value");
    expect(fieldLabel("source_config.custom_url")).toBe("Custom URL");
  });

  it("gives values their units", () => {
    expect(withUnit("cpu", 0.5)).toBe("0.5 cores");
    expect(withUnit("queue_cpu_limit", 1)).toBe("1 core");
    expect(withUnit("memory_limit_mb", 2048)).toBe("2,048 MB");
    expect(withUnit("max_scale", 3)).toBe("3");
  });

  it("says the schema's rules with labels and units", () => {
    expect(wordsFor({ min_scale: 5, max_scale: 2 })).toEqual([
      "Maximum replicas must be at least the minimum (5)",
    ]);
    expect(wordsFor({ cpu: 1, cpu_limit: 0.5 })).toEqual([
      "CPU limit must be at least the request (1 core)",
    ]);
    expect(wordsFor({ queue_memory_mb: 512, queue_memory_limit_mb: 256 })).toEqual([
      "Queue workers memory limit must be at least the request (512 MB)",
    ]);
    expect(wordsFor({ cpu: 0 })).toEqual(["CPU must be at least 0.1 cores"]);
    expect(wordsFor({ cpu: 9 })).toEqual(["CPU must be at most 8 cores"]);
    expect(wordsFor({ memory_mb: 64 })).toEqual(["Memory must be at least 128 MB"]);
    expect(wordsFor({ max_scale: 1.5 })).toEqual(["Maximum replicas must be a whole number"]);
  });

  it("rephrases the service's messages and leaves others alone", () => {
    expect(messageWords("max_scale must be at least min_scale (5)")).toBe(
      "Maximum replicas must be at least the minimum (5)",
    );
    expect(
      messageWords("min_scale 0 (scale to zero) is only allowed for dev and dev_free deployments"),
    ).toMatch(/^Minimum replicas can be 0 \(scale to zero\) only for development deployments/);
    expect(
      messageWords("source_revision_config.image_uri is required for source internal_container."),
    ).toBe("Image is required for a container image deployment");
    expect(
      messageWords("provider_id starts with a letter or digit and holds letters, digits, _ . -"),
    ).toBe("Provider ID starts with a letter or digit and holds letters, digits, _ . -");
    expect(messageWords("Deployment with name x already exists.")).toBe(
      "Deployment with name x already exists.",
    );
  });

  it("says an empty required text is required", () => {
    const result = sourceRevisionConfigInput.safeParse({ image_uri: "" });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issueWords({ ...issue, path: ["source_revision_config", ...issue.path] })).toBe(
      "Image is required",
    );
  });
});

describe("the forms' resolver", () => {
  it("keeps a schema's own words and replaces zod's", async () => {
    const values = {
      ...configureDefaults({
        id: 1,
        name: "Agent",
        full_name: "acme/agent",
        url: "http://code.example/acme/agent",
        default_branch: "main",
        host_integration_id: "00000000-0000-4000-8000-000000000000",
      } as never),
      repo_ref: "",
      resource_spec: { cpu: 0, min_scale: 3, max_scale: 1 },
    };
    const resolve = formResolver<typeof values>(configureSchema);
    const { errors } = await resolve(values, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    const spec = errors.resource_spec as Record<string, { message: string }>;
    expect(spec.max_scale!.message).toBe("Maximum replicas must be at least the minimum (3)");
    expect(spec.cpu!.message).toBe("CPU must be at least 0.1 cores");
    expect((errors.repo_ref as { message: string }).message).toBe("Enter a branch, tag or commit");
  });
});
