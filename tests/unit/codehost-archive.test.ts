import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  branchSha,
  DEFAULT_TOKEN,
  sampleRepositories,
  startCodehostServer,
  type CodehostServer,
} from "../../testing/codehost-server";
import { ArchiveFailure } from "../../src/server/integrations/codehost/archive";
import { createCodehostClient } from "../../src/server/integrations/codehost/octokit";
import { parseAllowlist } from "../../src/server/outbound/allowlist";
import { createOutboundFetch } from "../../src/server/outbound/client";

// The code-host client's archive download against the local code host: the rules the build
// relies on that the integration tests do not reach (a deadline, credentials in a Location, a
// commit the code host does not know).

let host: CodehostServer;
const loopbackAllowed = createOutboundFetch({ allowlist: parseAllowlist("127.0.0.1") });

beforeAll(async () => {
  host = await startCodehostServer({
    repos: [
      ...sampleRepositories,
      {
        id: 3001,
        owner: "acme",
        name: "credentials-hop",
        tarball: { location: ({ archive }) => archive.replace("://", "://user:secret@") },
      },
    ],
  });
});
afterAll(() => host.stop());

const client = () =>
  createCodehostClient(
    host.url,
    { kind: "token", token: DEFAULT_TOKEN },
    { fetch: loopbackAllowed },
  );
const download = (repo: string, sha: string, timeoutMs = 10_000) =>
  client().downloadArchive("acme", repo, sha, { maxBytes: 1024 * 1024, timeoutMs });

describe("downloadArchive", () => {
  it("streams the archive from the archive host it was redirected to", async () => {
    const sha = branchSha("acme", "support-bot", "main");
    const archive = await download("support-bot", sha);
    expect(archive.redirects).toEqual([host.archiveUrl]);
    const bytes = Buffer.from(await new Response(archive.body).arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it("gives up when the code host does not answer within the download's time", async () => {
    host.setDelay(3000);
    try {
      const failure = await download("support-bot", branchSha("acme", "support-bot", "main"), 1000)
        .then(() => null)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ArchiveFailure);
      expect((failure as Error).message).toBe("the archive did not arrive within 1 s");
    } finally {
      host.setDelay(0);
    }
  });

  it("does not follow a Location carrying credentials", async () => {
    const sha = branchSha("acme", "credentials-hop", "main");
    await expect(download("credentials-hop", sha)).rejects.toThrow(
      new ArchiveFailure(`${host.url} redirected to a URL with credentials, which is not followed`),
    );
  });

  it("fails at once when the code host has no such commit (a retry would not help)", async () => {
    await expect(download("support-bot", "f".repeat(40))).rejects.toThrow(
      new ArchiveFailure(`${host.url} answered HTTP 404`),
    );
  });
});
