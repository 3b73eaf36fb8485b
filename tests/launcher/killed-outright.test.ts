import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { TERMINAL_STATUSES } from "../../src/schemas/revision-states";
import { isPostgres } from "../../src/server/db/embedded/server";
import { createTestDatabase } from "../../testing/database";
import { api } from "../helpers/http";
import {
  LAUNCHER_KEY,
  launchHangar,
  newDataDir,
  postmasterPid,
  type Launched,
} from "../helpers/launcher";

// `npm start` killed outright (SIGKILL of its whole process group; on the embedded default its
// PostgreSQL too, as a machine's out-of-memory killer or a power cut would) in the middle of
// concurrent creates and patches, then started again: every write answered 2xx is there, none is
// half made (a deployment without its revision, a revision that is not its deployment's latest
// config), and every revision reaches a final state.
//
// The job expiry stays at its default (15 minutes): steps that were running when the worker died
// are handed back by the restarted worker's lifeline (its dead predecessor holds no lock).

type Outcome =
  | { kind: "create"; name: string; status: number; id?: string }
  | { kind: "patch"; id: string; image: string; status: number };

interface Revision {
  id: string;
  number: number;
  status: string;
  source_revision_config: { image_uri: string | null };
}

const variants = [
  ["the embedded default", false],
  ["an external PostgreSQL", true],
] as const;

describe.each(variants)("npm start killed outright on %s", (_, external) => {
  let hangar: Launched | undefined;
  let dropDatabase = async () => undefined as void;
  afterAll(async () => {
    await hangar?.signal("SIGTERM");
    await dropDatabase();
    if (hangar) await rm(hangar.dataDir, { recursive: true, force: true });
  });

  it("keeps every write answered 2xx, makes none by halves, and finishes every revision", async () => {
    let databaseUrl: string | undefined;
    if (external)
      ({ url: databaseUrl, drop: dropDatabase } = await createTestDatabase("hangar_kill"));
    hangar = await launchHangar(await newDataDir(), { databaseUrl });
    const run = Math.random().toString(36).slice(2, 7);
    const call = (p: string, options: Parameters<typeof api>[1] = {}) =>
      api(p, { key: LAUNCHER_KEY, baseUrl: hangar!.url, ...options });
    const body = (name: string) => ({
      name,
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: `registry.example/${name}:1` },
    });

    const seeds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("/v2/deployments", {
        method: "POST",
        body: body(`kill-${run}-seed-${i}`),
      });
      expect(res.status, res.text).toBe(201);
      seeds.push(res.body.id);
    }

    // Four clients create, four patch the seeds, each one request after another, until the kill.
    const outcomes: Outcome[] = [];
    let n = 0;
    let killed = false;
    const creator = async () => {
      while (!killed) {
        const name = `kill-${run}-${n++}`;
        const res = await call("/v2/deployments", { method: "POST", body: body(name) }).catch(
          () => ({ status: 0, body: undefined }),
        );
        outcomes.push({ kind: "create", name, status: res.status, id: res.body?.id });
      }
    };
    const patcher = async (id: string) => {
      while (!killed) {
        const image = `registry.example/patch-${run}:${n++}`;
        const res = await call(`/v2/deployments/${id}`, {
          method: "PATCH",
          body: { source_revision_config: { image_uri: image } },
        }).catch(() => ({ status: 0 }));
        outcomes.push({ kind: "patch", id, image, status: res.status });
      }
    };
    const load = Promise.all([
      ...Array.from({ length: 4 }, creator),
      ...Array.from({ length: 4 }, (_, i) => patcher(seeds[i % seeds.length]!)),
    ]);
    await expect
      .poll(() => outcomes.filter((o) => o.status >= 200 && o.status < 300).length, {
        timeout: 60_000,
        interval: 20,
      })
      .toBeGreaterThanOrEqual(40);
    const pid = external ? 0 : postmasterPid(hangar.dataDir);
    await hangar.signal("SIGKILL");
    if (pid) process.kill(pid, "SIGKILL");
    killed = true;
    await load;
    if (pid) await expect.poll(() => isPostgres(pid)).toBe(false);

    const answered = outcomes.filter((o) => o.status !== 0);
    console.log(
      `${outcomes.length} writes: ${answered.filter((o) => o.status < 300).length} answered 2xx, ` +
        `${answered.filter((o) => o.status >= 300).length} answered with an error, ` +
        `${outcomes.length - answered.length} cut off by the kill`,
    );
    // The kill, not the load, ended the requests: every answer before it was a success.
    expect(answered.filter((o) => o.status >= 300)).toEqual([]);

    const restartedAt = Date.now();
    hangar = await launchHangar(hangar.dataDir, { databaseUrl });
    console.log(`npm start serving again ${Date.now() - restartedAt} ms after it was started`);
    const list = await call(`/v2/deployments?name_contains=kill-${run}&limit=100`);
    expect(list.status, list.text).toBe(200);
    const deployments = new Map<string, { id: string; name: string; latest_revision_id: string }>(
      list.body.resources.map((d: { name: string }) => [d.name, d]),
    );
    const revisionsOf = async (id: string): Promise<Revision[]> => {
      const res = await call(`/v2/deployments/${id}/revisions?limit=100`);
      expect(res.status, res.text).toBe(200);
      return res.body.resources;
    };

    // Creates: answered 201 → there; cut off → there whole, or not at all.
    for (const o of outcomes.filter((o) => o.kind === "create")) {
      if (o.status === 201) expect(deployments.get(o.name)?.id, o.name).toBe(o.id);
    }
    // Every deployment is whole: revisions 1..n, the latest its config, each patch once.
    const imagesOf = new Map<string, string[]>();
    for (const d of deployments.values()) {
      const revisions = await revisionsOf(d.id);
      const numbers = revisions.map((r) => r.number).sort((a, b) => a - b);
      expect(numbers, d.name).toEqual(numbers.map((_, i) => i + 1));
      const newest = revisions.find((r) => r.number === numbers.at(-1));
      expect(d.latest_revision_id, d.name).toBe(newest?.id);
      const full = await call(`/v2/deployments/${d.id}`);
      expect(full.body.source_revision_config.image_uri, d.name).toBe(
        newest?.source_revision_config.image_uri,
      );
      const images = revisions.map((r) => r.source_revision_config.image_uri!);
      expect(new Set(images).size, d.name).toBe(images.length);
      imagesOf.set(d.id, images);
    }
    // Patches: answered 200 → their revision is there; cut off → there once, or not at all.
    for (const o of outcomes.filter((o) => o.kind === "patch")) {
      if (o.status === 200) expect(imagesOf.get(o.id), o.image).toContain(o.image);
    }

    // Every revision reaches a final state (the queue resumes what was running at the kill).
    const unfinished = async () => {
      const left: string[] = [];
      for (const d of deployments.values())
        for (const r of await revisionsOf(d.id))
          if (!(TERMINAL_STATUSES as string[]).includes(r.status))
            left.push(`${d.name}#${r.number} ${r.status}`);
      return left;
    };
    await expect.poll(unfinished, { timeout: 60_000, interval: 1000 }).toEqual([]);
    console.log(`every revision final ${Date.now() - restartedAt} ms after the restart began`);
  });
});
