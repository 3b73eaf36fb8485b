import type { V1Deployment, V1EnvVar, V1Secret } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import {
  redactManifests,
  renderManifests,
  type RenderInput,
} from "../../../src/server/jobs/manifests";
import { find, inputWith, mainContainer, validate } from "./fixtures";

// The tracing environment of a deployment's pods (contract 15.7): the endpoint and project in
// plain env, the ingest key only through the `<name>-tracing` Secret.

const key = "hgt_" + "k".repeat(43);
const tracing = {
  endpoint: "https://hangar.example.com/api/v1",
  project: "support agent",
  key,
};
const withTracing = (overrides: Partial<RenderInput["revision"]> = {}): RenderInput => ({
  ...inputWith(overrides),
  tracing,
});

const appDeployments = [
  "support-agent",
  "support-agent-queue",
  "support-agent-orchestrator",
  "support-agent-executor",
];
const secretRef = (name: string, secretKey: string): V1EnvVar => ({
  name,
  valueFrom: { secretKeyRef: { name: "support-agent-tracing", key: secretKey } },
});

describe("the tracing environment", () => {
  const objects = renderManifests(withTracing());

  it("every app process gets the SDK's and the OTel traces exporter's variables", () => {
    for (const name of appDeployments) {
      const env = mainContainer(find<V1Deployment>(objects, "Deployment", name)).env!;
      const tracingEntries = env.filter((e) => /^(LANGSMITH|OTEL)_/.test(e.name));
      expect(tracingEntries).toEqual([
        { name: "LANGSMITH_TRACING", value: "true" },
        { name: "LANGSMITH_ENDPOINT", value: "https://hangar.example.com/api/v1" },
        { name: "LANGSMITH_PROJECT", value: "support agent" },
        secretRef("LANGSMITH_API_KEY", "api_key"),
        {
          name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
          value: "https://hangar.example.com/api/v1/otel/v1/traces",
        },
        { name: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", value: "http/protobuf" },
        secretRef("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "otlp_headers"),
      ]);
    }
  });

  it("the key is only in the Secret, never in a pod spec; redaction hides it", () => {
    const secret = find<V1Secret>(objects, "Secret", "support-agent-tracing");
    validate(secret);
    expect(secret.stringData).toEqual({
      api_key: key,
      otlp_headers: `x-api-key=${key},Langsmith-Project=support%20agent`,
    });
    const notSecrets = JSON.stringify(objects.filter((o) => o.kind !== "Secret"));
    expect(notSecrets).not.toContain(key);
    expect(JSON.stringify(redactManifests(objects))).not.toContain(key);
    // Applied before the workloads that read it.
    const order = objects.map((o) => `${o.kind}/${o.metadata?.name}`);
    expect(order.indexOf("Secret/support-agent-tracing")).toBeLessThan(
      order.indexOf("Deployment/support-agent"),
    );
  });

  it("the database and cache pods get none of it", () => {
    const text = JSON.stringify(
      objects.filter((o) => o.kind === "StatefulSet" || o.metadata?.name?.endsWith("-redis")),
    );
    expect(text).not.toContain("LANGSMITH");
    expect(text).not.toContain("support-agent-tracing");
  });

  it("a user's secret of the same name wins over ours", () => {
    const rendered = renderManifests(
      withTracing({
        secrets: [
          { name: "LANGSMITH_PROJECT", value: "mine" },
          { name: "LANGSMITH_API_KEY", value: "lsv2_own" },
        ],
      }),
    );
    const env = mainContainer(find<V1Deployment>(rendered, "Deployment", "support-agent")).env!;
    const named = (name: string) => env.filter((e) => e.name === name);
    expect(named("LANGSMITH_PROJECT")).toEqual([
      {
        name: "LANGSMITH_PROJECT",
        valueFrom: { secretKeyRef: { name: "support-agent-secrets", key: "LANGSMITH_PROJECT" } },
      },
    ]);
    expect(named("LANGSMITH_API_KEY")).toEqual([
      {
        name: "LANGSMITH_API_KEY",
        valueFrom: { secretKeyRef: { name: "support-agent-secrets", key: "LANGSMITH_API_KEY" } },
      },
    ]);
    expect(named("LANGSMITH_ENDPOINT")).toHaveLength(1);
  });

  it("without a tracing input nothing of it is rendered", () => {
    const plain = renderManifests(inputWith());
    expect(plain.some((o) => o.metadata?.name === "support-agent-tracing")).toBe(false);
    expect(JSON.stringify(plain)).not.toMatch(/LANGSMITH|OTEL_/);
  });
});
