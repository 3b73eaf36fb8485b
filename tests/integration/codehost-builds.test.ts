import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import {
  branchSha,
  DEFAULT_TOKEN,
  sampleRepositories,
  startCodehostServer,
  type CodehostServer,
} from "../../testing/codehost-server";
import { createCodehostDeployment, createIntegration } from "../helpers/codehost";
import { waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { uniqueName } from "../helpers/revision-fixtures";

// A code-host revision's build (issue 24, code-host sources): the test server's worker fetches
// the repository's archive at the pinned commit from a local code host, whose tarball endpoint
// redirects to a second origin, and builds it as it builds uploads (a dry run: no image builder).

const ARCHIVE_MAX_BYTES = Number(inject("testEnv").HANGAR_CODEHOST_ARCHIVE_MAX_BYTES);
const app = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
});

let tenant: Tenant;
let host: CodehostServer;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  host = await startCodehostServer({
    repos: [
      ...sampleRepositories,
      {
        id: 2001,
        owner: "acme",
        name: "refused-hop",
        tarball: {
          location: ({ archivePort }) =>
            `http://127.0.0.2:${archivePort}/acme/refused-hop/legacy.tar.gz/x?token=t`,
        },
      },
      {
        id: 2002,
        owner: "acme",
        name: "hop-loop",
        tarball: {
          location: ({ archive }) => `${archive}/loop/1`,
        },
      },
      {
        id: 2003,
        owner: "acme",
        name: "ftp-hop",
        tarball: {
          location: () => "ftp://127.0.0.1/acme/ftp-hop.tar.gz",
        },
      },
      {
        id: 2004,
        owner: "acme",
        name: "oversized",
        tarball: {
          paddingBytes: ARCHIVE_MAX_BYTES + 256 * 1024,
        },
      },
      {
        id: 2005,
        owner: "acme",
        name: "escape",
        tarball: {
          extraEntries: () => [{ path: "elsewhere/planted.txt", content: "planted" }],
        },
      },
    ],
    apps: [{ appId: "902", publicKey: app.publicKey, installationId: "4242" }],
  });
  integrationId = await createIntegration(tenant.keys.admin, host);
});
afterAll(() => host?.stop());

const buildLog = async (deploymentId: string, revisionId: string): Promise<string[]> => {
  const res = await api(`/v2/deployments/${deploymentId}/revisions/${revisionId}/logs?limit=1000`, {
    key: tenant.keys.viewer,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.resources.map((l: { line: string }) => l.line);
};

/** A deployment of `owner/name` at main; resolves with its finished revision and build log. */
async function build(repo: string, integration = integrationId) {
  const created = await createCodehostDeployment(tenant.keys.editor, host, integration, { repo });
  const revision = await waitForRevision(created.latest_revision_id);
  const [owner, name] = repo.split("/") as [string, string];
  return {
    revision,
    sha: branchSha(owner, name, "main"),
    log: await buildLog(created.id, revision.id),
  };
}

/** The requests the archive host (the second origin) saw for a path. */
const archiveRequests = (path: string) =>
  host.seen.filter((s) => s.origin === host.archiveUrl && s.request.includes(path));

describe("a code-host revision's build", () => {
  it("fetches the archive at the pinned commit, unpacks and checks it, and is DEPLOYED (dry run)", async () => {
    const { revision, sha, log } = await build("acme/support-bot");
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    expect(log).toEqual(
      expect.arrayContaining([
        `Fetching acme/support-bot at ${sha} from ${host.url}`,
        `Redirected to ${host.archiveUrl}`,
        expect.stringMatching(new RegExp(`^Fetched acme/support-bot at ${sha}: \\d+ bytes$`)),
        expect.stringMatching(/^Unpacked 3 files \(\d+ bytes\):$/),
        "  langgraph.json",
        "  pyproject.toml",
        "  src/agent.py",
        "Left .env out of the build context (its values come from the deployment's secrets)",
        "Graph config langgraph.json: python 3.12, graphs agent",
        "Generated Dockerfile:",
        "  FROM docker.io/langchain/langgraph-api:3.12",
        "  RUN cd /deps/app && pip install -e .",
        expect.stringMatching(
          /^No image builder configured \(HANGAR_BUILDER\): hangar\.local\/builds:[0-9a-f]{64} was named, not built \(dry run\)$/,
        ),
      ]),
    );
    expect(revision.imageRef).toMatch(/^hangar\.local\/builds:[0-9a-f]{64}$/);
    expect(revision.buildPlan).toMatchObject({
      source: "codehost",
      repo_commit_sha: sha,
      context: { files: 3 },
      graph_config: { path: "langgraph.json", runtime: "python", version: "3.12" },
    });

    // The token went to the API's origin only; the archive host got no Authorization at all.
    const tarball = host.seen.filter(
      (s) => s.request === `GET /repos/acme/support-bot/tarball/${sha}`,
    );
    expect(tarball.map((s) => [s.origin, s.authorization])).toEqual([
      [host.url, `token ${DEFAULT_TOKEN}`],
    ]);
    const fetched = archiveRequests(`/acme/support-bot/legacy.tar.gz/${sha}?token=`);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.authorization).toBeNull();
    // Neither the token nor the signed URL's query reaches the log; neither does the committed .env.
    const signedQuery = fetched[0]!.request.split("?")[1]!;
    const text = log.join("\n");
    for (const secret of [DEFAULT_TOKEN, signedQuery, "sk-committed-never-in-a-build"])
      expect(text).not.toContain(secret);
  });

  it("uses an app installation's token on the API's origin only", async () => {
    const res = await api("/v1/integrations/codehost", {
      key: tenant.keys.admin,
      method: "POST",
      body: {
        name: uniqueName("app host"),
        api_base_url: host.url,
        app_id: 902,
        private_key: app.privateKey,
        installation_id: "4242",
      },
    });
    expect(res.status, res.text).toBe(201);
    const { revision, sha } = await build("acme/agent-chat", res.body.id);
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    const tarball = host.seen.filter(
      (s) => s.request === `GET /repos/acme/agent-chat/tarball/${sha}`,
    );
    expect(tarball).toHaveLength(1);
    expect(tarball[0]).toMatchObject({
      origin: host.url,
      authorization: expect.stringMatching(/^token ghs_/),
    });
    const fetched = archiveRequests(`/acme/agent-chat/legacy.tar.gz/${sha}`);
    expect(fetched.map((s) => s.authorization)).toEqual([null]);
  });
});

describe("the archive download's rules", () => {
  it("does not follow a redirect to an address the policy refuses", async () => {
    const { revision, sha } = await build("acme/refused-hop");
    const archivePort = new URL(host.archiveUrl).port;
    expect(revision).toMatchObject({
      status: "BUILD_FAILED",
      statusMessage: `Could not fetch acme/refused-hop at ${sha}: the redirect to http://127.0.0.2:${archivePort} is not followed: 127.0.0.2 is a loopback address, which Hangar's outbound address policy refuses (allow it with HANGAR_EGRESS_ALLOWLIST).`,
    });
  });

  it("stops after five redirects", async () => {
    const { revision, sha } = await build("acme/hop-loop");
    expect(revision).toMatchObject({
      status: "BUILD_FAILED",
      statusMessage: `Could not fetch acme/hop-loop at ${sha}: redirected more than 5 times; Hangar stopped following.`,
    });
    expect(archiveRequests("/loop/").map((s) => s.request)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `GET /loop/${n}`),
    );
  });

  it("follows only http(s) Locations", async () => {
    const { revision, sha } = await build("acme/ftp-hop");
    expect(revision).toMatchObject({
      status: "BUILD_FAILED",
      statusMessage: `Could not fetch acme/ftp-hop at ${sha}: ${host.url} redirected to a ftp: URL, which is not followed (only http and https are).`,
    });
  });

  it("stops reading an archive larger than HANGAR_CODEHOST_ARCHIVE_MAX_BYTES", async () => {
    const { revision, sha } = await build("acme/oversized");
    expect(revision).toMatchObject({
      status: "BUILD_FAILED",
      statusMessage: `Could not fetch acme/oversized at ${sha}: the archive is larger than ${ARCHIVE_MAX_BYTES} bytes.`,
    });
  });

  it("refuses a member outside the archive's top folder", async () => {
    const { revision, sha } = await build("acme/escape");
    expect(revision).toMatchObject({
      status: "BUILD_FAILED",
      statusMessage: `Source archive: elsewhere/planted.txt: lies outside the archive's top folder acme-escape-${sha.slice(0, 7)}/`,
    });
  });
});
