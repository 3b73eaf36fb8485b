import { beforeAll, describe, expect, it } from "vitest";
import { decrypt } from "../../src/server/crypto";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  createDeployment,
  createSourceDeployment,
  createTagValue,
  patchDeployment,
  revisionsOf,
} from "../helpers/revision-fixtures";

let tenant: Tenant;
let editor: string;

beforeAll(async () => {
  tenant = await createTenant();
  editor = tenant.keys.editor;
});

describe("concurrent PATCHes of one deployment", () => {
  it("serializes patches of different fields: none is lost, revision numbers stay consecutive", async () => {
    const created = await createSourceDeployment(editor);
    const tag = await createTagValue(editor);
    const patches = [
      { source_revision_config: { source_tarball_path: "uploads/app-2.tgz" } },
      { source_revision_config: { graph_config_path: "graphs/main.json" } },
      { source_config: { install_command: "pnpm install" } },
      { source_config: { build_command: "pnpm build" } },
      { source_config: { resource_spec: { cpu: 2 } } },
      { secrets: [{ name: "TOKEN", value: "concurrent-secret" }] },
      { source_config: { custom_url: "https://concurrent.example" } },
      { tag_value_ids: [tag] },
    ];
    const results = await Promise.all(
      patches.map((body) => patchDeployment(editor, created.id, body)),
    );
    expect(results.map((r) => r.status)).toEqual(patches.map(() => 200));

    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const final = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(final.body.latest_revision_id).toBe(revisions[6]!.id);
    expect(final.body).toMatchObject({
      source_revision_config: {
        source_tarball_path: "uploads/app-2.tgz",
        graph_config_path: "graphs/main.json",
      },
      source_config: {
        install_command: "pnpm install",
        build_command: "pnpm build",
        resource_spec: { cpu: 2, cpu_limit: 4 },
        custom_url: "https://concurrent.example",
      },
      secrets: [{ name: "TOKEN", value: "********" }],
      tag_value_ids: [tag],
    });
    // The newest revision holds every revision-bearing change, secrets included.
    expect(revisions[6]!.sourceRevisionConfig).toMatchObject(final.body.source_revision_config);
    const snapshot = revisions[6]!.secretsEncrypted as { name: string; value_encrypted: string }[];
    expect(snapshot.map((s) => [s.name, decrypt(s.value_encrypted)])).toEqual([
      ["TOKEN", "concurrent-secret"],
    ]);
    // Each patch saw the one before it: the ETags (versions) are all different.
    expect(new Set(results.map((r) => r.headers.get("etag"))).size).toBe(patches.length);
  });

  it("ten parallel image changes cut ten unique, consecutive revisions", async () => {
    const created = await createDeployment(editor);
    const images = Array.from({ length: 10 }, (_, i) => `registry.example/app:v${i + 2}`);
    const results = await Promise.all(
      images.map((image_uri) =>
        patchDeployment(editor, created.id, { source_revision_config: { image_uri } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(images.map(() => 200));

    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const cut = revisions
      .slice(1)
      .map((r) => (r.sourceRevisionConfig as { image_uri: string }).image_uri);
    expect([...cut].sort()).toEqual([...images].sort());
    const final = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(final.body.latest_revision_id).toBe(revisions[10]!.id);
    expect(final.body.source_revision_config.image_uri).toBe(cut[9]);
    const audits = await testDb().auditEvent.findMany({
      where: { targetId: created.id, action: "deployment.update" },
    });
    expect(
      audits.map((a) => (a.data as { revision: number }).revision).sort((a, b) => a - b),
    ).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("with one shared If-Match, exactly one of several parallel patches wins", async () => {
    const created = await createDeployment(editor);
    const read = await api(`/v2/deployments/${created.id}`, { key: editor });
    const etag = read.headers.get("etag")!;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        patchDeployment(
          editor,
          created.id,
          { source_config: { custom_url: `https://racer-${n}.example` } },
          { "if-match": etag },
        ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    const final = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(final.body.source_config.custom_url).toBe(winner.body.source_config.custom_url);
  });
});
