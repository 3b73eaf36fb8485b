import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Drivers } from "../src/server/jobs/drivers";

// Gated drivers for tests that need a revision mid-flight: each driver call passes a gate that
// a test can close (hold) for one step, optionally for one deployment (by name; the deploy step
// knows it from the rendered objects' labels), and open again (release) when it has seen what
// it wanted. No sleeping: the revision waits exactly as long as the test says. The gate is
// controlled over HTTP so a test in another process (vitest, Playwright) can drive it.

export type GatedStep = "source" | "build" | "deploy";
export interface Hold {
  step: GatedStep;
  /**
   * A deployment: its name (deploy step) or its id (build step, whose plan names it by id);
   * without one, the hold applies to every deployment.
   */
  name?: string;
}

const matches = (hold: Hold, step: GatedStep, name: string | undefined) =>
  hold.step === step && (hold.name === undefined || hold.name === name);

export function createGate(initial: Hold[] = []) {
  let holds = [...initial];
  const waiting = new Set<{ step: GatedStep; name?: string; wake: () => void }>();
  const wakeAll = () => [...waiting].forEach((w) => w.wake());

  return {
    /** Waits while a hold matches the call. */
    async pass(step: GatedStep, name?: string): Promise<void> {
      while (holds.some((h) => matches(h, step, name))) {
        await new Promise<void>((resolve) => {
          const entry = { step, name, wake: () => (waiting.delete(entry), resolve()) };
          waiting.add(entry);
        });
      }
    },
    hold(hold: Hold) {
      holds.push(hold);
    },
    release(hold: Hold) {
      holds = holds.filter((h) => !(h.step === hold.step && h.name === hold.name));
      wakeAll();
    },
    /** The calls waiting now. */
    held: () => [...waiting].map(({ step, name }) => ({ step, name })),
  };
}
export type Gate = ReturnType<typeof createGate>;

const NAME_LABEL = "app.kubernetes.io/name";

/** The drivers, each call passing the gate first (teardown is never held). */
export function gatedDrivers(drivers: Drivers, gate: Gate): Drivers {
  return {
    source: {
      resolve: async (input) => (await gate.pass("source"), drivers.source.resolve(input)),
    },
    builder: {
      imageBuilder: drivers.builder.imageBuilder,
      build: async (plan, io) => (
        await gate.pass("build", plan.deployment_id),
        drivers.builder.build(plan, io)
      ),
      release: drivers.builder.release && ((plan) => drivers.builder.release!(plan)),
    },
    deployer: {
      name: drivers.deployer.name,
      runtime: drivers.deployer.runtime,
      async apply(objects) {
        const name = objects.map((o) => o.metadata?.labels?.[NAME_LABEL]).find(Boolean);
        await gate.pass("deploy", name);
        return drivers.deployer.apply(objects);
      },
      teardown: (objects) => drivers.deployer.teardown(objects),
    },
  };
}

async function readJson(req: http.IncomingMessage): Promise<Hold> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Hold;
}

/** POST /hold and /release with a Hold; GET /held lists the waiting calls. */
export async function serveGate(gate: Gate): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/held") return reply(200, gate.held());
    if (req.method === "POST" && req.url === "/hold")
      return reply(200, gate.hold(await readJson(req)) ?? {});
    if (req.method === "POST" && req.url === "/release")
      return reply(200, gate.release(await readJson(req)) ?? {});
    reply(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

/** A test's handle on a gated worker's gate. */
export function gateClient(url: string) {
  const post = async (path: string, hold: Hold) => {
    const res = await fetch(`${url}${path}`, { method: "POST", body: JSON.stringify(hold) });
    if (!res.ok) throw new Error(`gate ${path} answered ${res.status}`);
  };
  return {
    hold: (hold: Hold) => post("/hold", hold),
    release: (hold: Hold) => post("/release", hold),
    held: async () => (await (await fetch(`${url}/held`)).json()) as Hold[],
    /** Resolves once a call matching `hold` is waiting at the gate. */
    async waitUntilHeld(hold: Hold, timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const held = await this.held();
        if (
          held.some(
            (h) => h.step === hold.step && (hold.name === undefined || h.name === hold.name),
          )
        )
          return;
        if (Date.now() > deadline) throw new Error(`nothing held at ${JSON.stringify(hold)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
export type GateClient = ReturnType<typeof gateClient>;
