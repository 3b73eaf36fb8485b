import { copyFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/lib/free-port";
import { generatePem } from "../../src/server/registry/signing-key";
import { createTestDatabase } from "../../testing/database";
import { startRegistry, type RunningRegistry } from "../../testing/registry";
import { api } from "../helpers/http";
import { LAUNCHER_KEY, launchHangar, newDataDir, type Launched } from "../helpers/launcher";
import { cookiesOf, signedIn, signInAttempt } from "../helpers/sign-in";

// One installation, many instances (issue 27, goal 5): two `npm start`s on one PostgreSQL, each
// with its own data folder, the second given the first's encryption key as the README says. What
// one instance writes or signs, the other reads or honours; an instance with another key refuses
// to start. The first instance's data folder is one of an earlier version (its registry signing
// key in a file): the installation adopts it.

const PASSWORD = "instances-admin-password-1";
const SERVICE = "hangar-registry";

describe("two instances of one installation", () => {
  let dropDatabase = async () => undefined as void;
  let databaseUrl: string;
  let registryPort: number;
  let registry: RunningRegistry | undefined;
  let first: Launched;
  let second: Launched;
  let legacyCertificate: string;
  const dataDirs: string[] = [];
  let dirs: [string, string];
  const env = (mode = "self_hosted") => ({
    HANGAR_MODE: mode,
    HANGAR_ADMIN_PASSWORD: PASSWORD,
    HANGAR_REGISTRY_URL: `127.0.0.1:${registryPort}`,
    HANGAR_REGISTRY_API_URL: `http://127.0.0.1:${registryPort}`,
    HANGAR_LISTENER_POLL_SECONDS: "2",
  });
  const call = (hangar: Launched, p: string, options: Parameters<typeof api>[1] = {}) =>
    api(p, { key: LAUNCHER_KEY, baseUrl: hangar.url, ...options });
  const dataDir = async () => {
    const dir = await newDataDir();
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    const database = await createTestDatabase("hangar_instances");
    [databaseUrl, dropDatabase] = [database.url, database.drop];
    registryPort = await freePort();
    const firstDir = await dataDir();
    const legacyPem = await generatePem();
    await writeFile(path.join(firstDir, "registry-signing.pem"), legacyPem, { mode: 0o600 });
    legacyCertificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(
      legacyPem,
    )![0];
    first = await launchHangar(firstDir, { databaseUrl, env: env() });
    const secondDir = await dataDir();
    await copyFile(path.join(firstDir, "encryption.key"), path.join(secondDir, "encryption.key"));
    second = await launchHangar(secondDir, { databaseUrl, env: env() });
    dirs = [firstDir, secondDir];
  });

  afterAll(async () => {
    await registry?.stop();
    await Promise.all([first?.signal("SIGTERM"), second?.signal("SIGTERM")]);
    await dropDatabase();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("hands a secret written through one instance to a listener polling the other", async () => {
    const listener = await call(first, "/v2/listeners", {
      method: "POST",
      body: {
        compute_type: "k8s",
        compute_id: "cluster-a",
        compute_config: { k8s_namespaces: ["agents"] },
      },
    });
    expect(listener.status, listener.text).toBe(201);
    const secretValue = `written-through-the-first-${Date.now()}`;
    const created = await call(first, "/v2/deployments", {
      method: "POST",
      body: {
        name: "remote-agent",
        source: "external_container",
        source_config: {
          listener_id: listener.body.id,
          listener_config: { k8s_namespace: "agents" },
        },
        source_revision_config: { image_uri: "registry.example/agent:1" },
        secrets: [{ name: "API_TOKEN", value: secretValue }],
      },
    });
    expect(created.status, created.text).toBe(201);
    let work: { revision_id: string; objects: unknown[] } | null = null;
    for (let i = 0; i < 30 && !work; i++) {
      const poll = await api("/v2/listener/work", {
        baseUrl: second.url,
        method: "POST",
        headers: { authorization: `Bearer ${listener.body.token}` },
        body: { replica_id: "replica-1", wait_seconds: 2 },
      });
      expect(poll.status, poll.text).toBe(200);
      work = poll.body.work;
    }
    expect(work?.revision_id).toBe(created.body.latest_revision_id);
    const objects = JSON.stringify(work!.objects);
    expect(
      objects.includes(secretValue) ||
        objects.includes(Buffer.from(secretValue).toString("base64")),
    ).toBe(true);
  });

  it("accepts a dashboard session signed in on one instance on the other", async () => {
    const signIn = await signInAttempt("admin@hangar.local", PASSWORD, { baseUrl: first.url });
    expect(signedIn(signIn)).toBe(true);
    const cookie = cookiesOf(signIn);
    for (const hangar of [first, second]) {
      const res = await api("/v2/deployments?limit=1", {
        baseUrl: hangar.url,
        headers: { cookie },
      });
      expect(res.status, res.text).toBe(200);
    }
  });

  it("signs registry tokens on one instance that a registry trusting the other honours", async () => {
    // Push tokens are for managed Hangar's internal_container deployments: both instances
    // restart in managed mode (the installation's secrets outlive restarts).
    await Promise.all([first.signal("SIGTERM"), second.signal("SIGTERM")]);
    first = await launchHangar(dirs[0], { databaseUrl, env: env("managed") });
    second = await launchHangar(dirs[1], { databaseUrl, env: env("managed") });
    const certificates = await Promise.all(
      [first, second].map((h) => fetch(`${h.url}/registry/certificate`).then((r) => r.text())),
    );
    // Both serve the installation's certificate: the upgraded data folder's, adopted.
    expect(certificates.map((c) => c.trim())).toEqual([legacyCertificate, legacyCertificate]);
    registry = await startRegistry({
      port: registryPort,
      realm: `${first.url}/registry/token`,
      service: SERVICE,
      certificatePem: certificates[1]!,
    });
    const deployment = await call(first, "/v2/deployments", {
      method: "POST",
      body: {
        name: "pushed-agent",
        source: "internal_container",
        source_config: { deployment_type: "dev" },
        source_revision_config: {},
      },
    });
    expect(deployment.status, deployment.text).toBe(201);
    const push = await call(first, `/v2/deployments/${deployment.body.id}/push-token`, {
      method: "POST",
    });
    expect(push.status, push.text).toBe(200);
    const repository = `${push.body.registry_url.split("/")[1]}/pushed-agent`;
    const basic = Buffer.from(`oauth2accesstoken:${push.body.token}`).toString("base64");
    const grant = await fetch(
      `${first.url}/registry/token?service=${SERVICE}&scope=repository:${repository}:push,pull`,
      { headers: { authorization: `Basic ${basic}` } },
    );
    expect(grant.status).toBe(200);
    const { token } = (await grant.json()) as { token: string };
    const upload = await fetch(`http://${registry.host}/v2/${repository}/blobs/uploads/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(upload.status, await upload.text()).toBe(202);
  });

  it("refuses to start an instance whose encryption key is not the installation's", async () => {
    const started = await launchHangar(await dataDir(), { databaseUrl, env: env() }).then(
      async (hangar) => {
        await hangar.signal("SIGTERM");
        return "started";
      },
      (error: Error) => error.message,
    );
    expect(started).toContain("this instance's encryption key is not the one this database");
    expect(started).toContain("HANGAR_ENCRYPTION_KEY");
    expect(started).toContain("encryption.key");
  });
});
