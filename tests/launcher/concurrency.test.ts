import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../testing/database";
import { api } from "../helpers/http";
import { LAUNCHER_KEY, launchHangar, newDataDir, type Launched } from "../helpers/launcher";

// The traffic that broke the old embedded default (issue 9), against `npm start` on the embedded
// PostgreSQL and on an external one: the same assertions must hold on both.

const variants = [
  ["the embedded default", false],
  ["an external PostgreSQL", true],
] as const;

describe.each(variants)("npm start on %s", (_, external) => {
  let hangar: Launched;
  let dropDatabase = async () => undefined as void;
  let databaseUrl: string | undefined;
  const created: { id: string; name: string }[] = [];
  const call = (path: string, options: Parameters<typeof api>[1] = {}) =>
    api(path, { key: LAUNCHER_KEY, baseUrl: hangar.url, ...options });
  const deployment = (name: string, image = "registry.example/app:1") => ({
    name,
    source: "internal_container",
    source_config: {},
    source_revision_config: { image_uri: image },
  });
  const run = Math.random().toString(36).slice(2, 7);

  beforeAll(async () => {
    if (external) {
      const database = await createTestDatabase("hangar_launcher");
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    hangar = await launchHangar(await newDataDir(), { databaseUrl });
  });

  afterAll(async () => {
    await hangar?.signal("SIGTERM");
    await dropDatabase();
    if (hangar) await rm(hangar.dataDir, { recursive: true, force: true });
  });

  it("answers 20 concurrent creates with 20 × 201, each readable at once", async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call("/v2/deployments", { method: "POST", body: deployment(`burst-${run}-${i}`) }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    created.push(...responses.map((r) => ({ id: r.body.id, name: r.body.name })));
    const reads = await Promise.all(created.map((d) => call(`/v2/deployments/${d.id}`)));
    expect(reads.map((r) => [r.status, r.body.name])).toEqual(created.map((d) => [200, d.name]));
  });

  it("lets exactly one of ten same-name creates win; the other nine get 409", async () => {
    const name = `same-${run}`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("/v2/deployments", { method: "POST", body: deployment(name) }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const winner = responses.find((r) => r.status === 201)!;
    created.push({ id: winner.body.id, name });
    const list = await call(`/v2/deployments?name_contains=${name}`);
    expect(list.body.resources.map((d: { id: string }) => d.id)).toEqual([winner.body.id]);
  });

  it("answers 90 concurrent mixed reads with 200 and the right rows", async () => {
    const sample = created.slice(0, 10);
    const ids = sample.map((d) => d.id).join(",");
    const reads = await Promise.all(
      Array.from({ length: 3 }, () =>
        sample.flatMap((d) => [
          call(`/v2/deployments/${d.id}`).then((r) => [r.status, r.body.id === d.id]),
          call(`/v2/deployments?deployment_ids=${ids}&limit=100`).then((r) => [
            r.status,
            r.body.resources.length === sample.length,
          ]),
          call(`/v2/deployments/${d.id}/revisions`).then((r) => [
            r.status,
            r.body.resources.every((v: { deployment_id: string }) => v.deployment_id === d.id),
          ]),
        ]),
      ).flat(),
    );
    expect(reads).toHaveLength(90);
    expect(reads).toEqual(reads.map(() => [200, true]));
  });

  it("serializes 25 concurrent revision-cutting patches: 26 revisions, the newest is latest", async () => {
    const target = created[0]!;
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call(`/v2/deployments/${target.id}`, {
          method: "PATCH",
          body: { source_revision_config: { image_uri: `registry.example/app:patch-${i}` } },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    const revisions = await call(`/v2/deployments/${target.id}/revisions?limit=100`);
    const numbers = revisions.body.resources.map((r: { number: number }) => r.number);
    expect(numbers).toEqual(Array.from({ length: 26 }, (_, i) => 26 - i));
    const after = await call(`/v2/deployments/${target.id}`);
    expect(after.body.latest_revision_id).toBe(revisions.body.resources[0].id);
  });

  it("keeps every row across a stop (Ctrl-C) and a start", async () => {
    const before = await call(`/v2/deployments?name_contains=${run}&limit=100`);
    expect(before.body.resources).toHaveLength(created.length);
    expect(await hangar.signal("SIGINT")).toBe(0);
    hangar = await launchHangar(hangar.dataDir, { databaseUrl });
    const after = await call(`/v2/deployments?name_contains=${run}&limit=100`);
    expect(after.status).toBe(200);
    expect(after.body.resources.map((d: { id: string }) => d.id)).toEqual(
      before.body.resources.map((d: { id: string }) => d.id),
    );
    const revisions = await call(`/v2/deployments/${created[0]!.id}/revisions?limit=100`);
    expect(revisions.body.resources).toHaveLength(26);
  });
});
