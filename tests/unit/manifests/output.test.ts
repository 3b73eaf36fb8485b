import type { V1Deployment, V1Secret } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { redactManifests, renderManifests, toYaml } from "../../../src/server/jobs/manifests";
import { find, inputWith, validate } from "./fixtures";

describe("determinism", () => {
  it("re-rendering the same revision gives identical objects", () => {
    expect(renderManifests(inputWith())).toEqual(renderManifests(inputWith()));
    expect(JSON.stringify(renderManifests(inputWith()))).toBe(
      JSON.stringify(renderManifests(inputWith())),
    );
  });

  it("the order of secrets, references and labels does not matter", () => {
    const input = inputWith();
    const spec = input.revision.sourceConfig.resource_spec!;
    const shuffled = inputWith({
      secrets: [...input.revision.secrets].reverse(),
      secretReferences: [
        { name: "Z_REF", secret_name: "z", secret_key: "k" },
        ...input.revision.secretReferences,
      ],
      sourceConfig: {
        listener_config: null,
        resource_spec: {
          ...spec,
          labels: Object.fromEntries(Object.entries(spec.labels!).reverse()),
          annotations: Object.fromEntries(Object.entries(spec.annotations!).reverse()),
        },
      },
    });
    const ordered = inputWith({
      secretReferences: [
        ...input.revision.secretReferences,
        { name: "Z_REF", secret_name: "z", secret_key: "k" },
      ],
    });
    expect(JSON.stringify(renderManifests(shuffled))).toBe(
      JSON.stringify(renderManifests(ordered)),
    );
  });

  it("does not modify its input", () => {
    const input = inputWith();
    const before = structuredClone(input);
    renderManifests(input);
    expect(input).toEqual(before);
  });
});

describe("secrets", () => {
  const objects = renderManifests(inputWith());

  it("renders the secret values into Secrets only", () => {
    expect(find<V1Secret>(objects, "Secret", "support-agent-secrets").stringData).toEqual({
      ANOTHER_TOKEN: "tok-123",
      OPENAI_API_KEY: "sk-live-very-secret",
    });
    const auth = find<V1Secret>(objects, "Secret", "support-agent-db-auth").stringData!;
    expect(auth.password).toBe("p@ss/word");
    expect(auth.uri).toBe(
      "postgres://postgres:p%40ss%2Fword@support-agent-db.hangar-0196f1c2-0000-7000-8000-aabbccddeeff.svc:5432/postgres",
    );
    const outsideSecrets = JSON.stringify(objects.filter((o) => o.kind !== "Secret"));
    for (const plaintext of ["sk-live-very-secret", "tok-123", "p@ss/word", "p%40ss"])
      expect(outsideSecrets).not.toContain(plaintext);
  });

  it("an empty secret set still renders the Secret (the object set stays the same)", () => {
    const out = renderManifests(inputWith({ secrets: [], secretReferences: [] }));
    const secret = find<V1Secret>(out, "Secret", "support-agent-secrets");
    expect(secret.stringData).toEqual({});
    expect(() => validate(secret)).not.toThrow();
  });

  it("redactManifests hides every Secret value and nothing else", () => {
    const withData = [
      ...objects,
      { apiVersion: "v1", kind: "Secret", metadata: { name: "raw" }, data: { key: "c2VjcmV0" } },
    ];
    const redacted = redactManifests(withData);
    const text = JSON.stringify(redacted);
    for (const plaintext of ["sk-live-very-secret", "tok-123", "p@ss", "c2VjcmV0"])
      expect(text).not.toContain(plaintext);
    expect(find<V1Secret>(redacted, "Secret", "support-agent-secrets").stringData).toEqual({
      ANOTHER_TOKEN: "********",
      OPENAI_API_KEY: "********",
    });
    expect(find<V1Secret>(redacted, "Secret", "raw").data).toEqual({ key: "********" });
    expect(redacted.filter((o) => o.kind !== "Secret")).toEqual(
      objects.filter((o) => o.kind !== "Secret"),
    );
    // The rendered objects themselves are untouched.
    expect(
      find<V1Secret>(objects, "Secret", "support-agent-secrets").stringData!.OPENAI_API_KEY,
    ).toBe("sk-live-very-secret");
  });
});

describe("toYaml", () => {
  it("is one multi-document stream that parses back to the same objects", () => {
    const objects = renderManifests(inputWith());
    const docs = parseAllDocuments(toYaml(objects));
    expect(Array.isArray(docs) && docs.every((d) => d.errors.length === 0)).toBe(true);
    expect((docs as { toJSON(): unknown }[]).map((d) => d.toJSON())).toEqual(objects);
  });

  it("keeps quantities and numeric-looking strings as strings", () => {
    const text = toYaml(renderManifests(inputWith()));
    expect(text).toContain('hangar.dev/revision: "3"');
    expect(text).toContain("cpu: 500m");
    expect(text).toContain("storage: 25Gi");
  });
});

describe("names", () => {
  it("stay valid, unique and stable for a 63-character name or one starting with a digit", () => {
    const long = "a".repeat(60) + "-b1";
    const render = (name: string, id: string) => {
      const input = inputWith();
      return renderManifests({ ...input, deployment: { ...input.deployment, name, id } });
    };
    const first = render(long, "0196f1c2-7a3b-7c4d-8e5f-000000000001");
    const other = render(long, "0196f1c2-7a3b-7c4d-8e5f-000000000002");
    const names = (objects: typeof first) =>
      objects.filter((o) => o.kind !== "Namespace").map((o) => o.metadata!.name!);
    for (const name of names(first)) {
      expect(name.length).toBeLessThanOrEqual(52);
      expect(name).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
    }
    // Truncation keeps one distinct name per component, as short names have.
    expect(new Set(names(first)).size).toBe(new Set(names(renderManifests(inputWith()))).size);
    expect(names(first).filter((n) => names(other).includes(n))).toEqual([]);
    expect(names(render(long, "0196f1c2-7a3b-7c4d-8e5f-000000000001"))).toEqual(names(first));
    for (const object of first) expect(() => validate(object)).not.toThrow();

    const digit = render("1st-agent", "0196f1c2-7a3b-7c4d-8e5f-000000000003");
    expect(find<V1Deployment>(digit, "Deployment", "d1st-agent").metadata!.labels).toMatchObject({
      "app.kubernetes.io/name": "1st-agent",
    });
  });
});
