import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { api } from "../helpers/http";
import { LAUNCHER_KEY, launchHangar, newDataDir, type Launched } from "../helpers/launcher";

// SIGTERM to `npm start` under load (issue 27): requests in flight finish, new ones get a clean
// 503 (the contract's error body) or find the port closed, never a reset connection or a 500;
// an open event stream and a revision log follow end cleanly; the worker hands back the step it
// could not finish (a rollout held past the stop), and the next start takes it up.

type Outcome =
  | { kind: "answered"; status: number; body: unknown }
  | { kind: "refused" }
  | { kind: "broken"; error: string };

/** A request's outcome: answered, refused before it was sent (port closed), or broken. */
async function attempt(url: string, init: RequestInit): Promise<Outcome> {
  try {
    const res = await fetch(url, init);
    const text = await res.text();
    return { kind: "answered", status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === "ECONNREFUSED") return { kind: "refused" };
    return { kind: "broken", error: `${String(error)} ${cause?.code ?? ""}` };
  }
}

/** Reads an event stream to its end; resolves with what it read, rejects if it broke. */
async function readStream(res: Response, seen: (text: string) => void): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
    seen(text);
  }
}

describe("SIGTERM to npm start under load", () => {
  let hangar: Launched;
  let kube: FakeKubeApi;
  let dataDir: string;
  const headers = { "x-api-key": LAUNCHER_KEY, "content-type": "application/json" };
  const call = (p: string, options: Parameters<typeof api>[1] = {}) =>
    api(p, { key: LAUNCHER_KEY, baseUrl: hangar.url, ...options });

  beforeAll(async () => {
    kube = await startFakeKubeApi();
    dataDir = await newDataDir();
    hangar = await launchHangar(dataDir, { env: { HANGAR_KUBECONFIG: kube.kubeconfig() } });
  });
  afterAll(async () => {
    await hangar?.signal("SIGTERM");
    await kube?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("finishes or refuses cleanly, ends streams, and hands the held step to the next start", async () => {
    // A revision in its rollout, held past the stop.
    kube.setRollout("ready", { readyAfterReads: 1_000_000 });
    const created = await call("/v2/deployments", {
      method: "POST",
      body: {
        name: "held-at-stop",
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/held:1" },
      },
    });
    expect(created.status, created.text).toBe(201);
    const { id, latest_revision_id: revisionId } = created.body;
    const revisionPath = `/v2/deployments/${id}/revisions/${revisionId}`;
    await expect
      .poll(async () => (await call(revisionPath)).body.status, { timeout: 30_000 })
      .toBe("DEPLOYING");

    // An open event stream and a follow of the held revision's log.
    let events = "";
    const eventStream = await fetch(`${hangar.url}/v2/deployments/events`, { headers });
    expect(eventStream.status).toBe(200);
    const eventsEnded = readStream(eventStream, (t) => (events = t));
    const logStream = await fetch(`${hangar.url}${revisionPath}/logs/stream`, { headers });
    expect(logStream.status).toBe(200);
    const logEnded = readStream(logStream, () => undefined);
    await expect.poll(() => events.includes("event: ready")).toBe(true);

    // Load: loops of lists, reads and creates, each until it is refused or told 503.
    const outcomes: Outcome[] = [];
    let n = 0;
    const loop = async (kind: number) => {
      for (;;) {
        const path =
          kind === 0 ? "/v2/deployments?limit=20" : kind === 1 ? revisionPath : "/v2/deployments";
        const init: RequestInit =
          kind === 2
            ? {
                method: "POST",
                headers,
                body: JSON.stringify({
                  name: `load-${n++}`,
                  source: "internal_container",
                  source_config: {},
                  source_revision_config: { image_uri: "registry.example/load:1" },
                }),
              }
            : { headers };
        const outcome = await attempt(`${hangar.url}${path}`, init);
        outcomes.push(outcome);
        if (outcome.kind !== "answered" || outcome.status === 503) return;
      }
    };
    const loops = [0, 1, 2, 0, 1, 2].map((kind) => loop(kind));
    await expect.poll(() => outcomes.length, { timeout: 30_000 }).toBeGreaterThan(12);
    const stopped = hangar.signal("SIGTERM");
    await Promise.all(loops);
    expect(await stopped).toBe(0);

    const count = (kind: string, status?: number) =>
      outcomes.filter((o) => o.kind === kind && (!status || ("status" in o && o.status === status)))
        .length;
    console.log(
      `${outcomes.length} requests: ${count("answered")} answered (${count("answered", 503)} 503), ` +
        `${count("refused")} refused, ${count("broken")} broken`,
    );
    const broken = outcomes.filter((o) => o.kind === "broken");
    expect(broken).toEqual([]);
    const answered = outcomes.filter((o) => o.kind === "answered");
    expect(answered.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
    for (const refusal of answered.filter((o) => o.status === 503))
      expect(refusal.body).toEqual({
        detail: expect.stringMatching(/shutting down/),
        code: "unavailable",
      });
    expect(answered.filter((o) => o.status < 300).length).toBeGreaterThan(12);
    // Both streams ended, neither broke.
    await expect(eventsEnded).resolves.toContain("event: ready");
    await expect(logEnded).resolves.toBeTypeOf("string");

    // The next start takes the handed-back step up: the rollout completes it.
    kube.setRollout("ready");
    hangar = await launchHangar(dataDir, { env: { HANGAR_KUBECONFIG: kube.kubeconfig() } });
    await expect
      .poll(async () => (await call(revisionPath)).body.status, { timeout: 30_000 })
      .toBe("DEPLOYED");
    const lines = (await call(`${revisionPath}/logs?limit=1000`)).body.resources.map(
      (l: { line: string }) => l.line,
    );
    expect(lines).toContain(
      "Handed back: the worker stopped during DEPLOYING; the next worker resumes it.",
    );
    expect(lines).toContain("Resuming DEPLOYING (attempt 2)");
    // Every create answered 201 is there.
    const createdNames = answered
      .filter((o) => o.status === 201)
      .map((o) => (o.body as { name: string }).name);
    const listed = await call("/v2/deployments?name_contains=load-&limit=100");
    expect(listed.body.resources.map((d: { name: string }) => d.name).sort()).toEqual(
      createdNames.sort(),
    );
  }, 180_000);
});
