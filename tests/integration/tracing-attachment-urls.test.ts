import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ATTACHMENT_URL_TTL_SECONDS,
  attachmentUrl,
} from "../../src/server/services/tracing/attachment-urls";
import { uniqueName } from "../helpers/deployments";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { postMultipart, postParts, sdkRun, tracingUrl } from "../helpers/tracing";

// An attachment's presigned_url (a read's s3_urls) is fetched without the API key, as the SDKs
// do: at /public/download, signed for its workspace, run, name and an hour; an altered or
// expired one is a 403, one missing a part or malformed a 422, and one naming another workspace
// finds no run there. It counts on the spec's Public download row, not the catch-all.

let tenant: Tenant;
let other: Tenant;
const picture = randomBytes(5000);
const run = sdkRun({ session_name: uniqueName("attach-url") });
let presigned: string;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  const res = await postMultipart(tenant.keys.editor, [
    ...postParts(run),
    { name: `attachment.${run.id}.picture`, data: picture, type: "image/png" },
    { name: `attachment.${run.id}.notes`, data: "some notes", type: "text/plain" },
  ]);
  expect(res.status).toBe(202);
  const read = await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer });
  presigned = read.body.s3_urls["attachment.picture"].presigned_url;
});

/** The URL with its query changed. */
function altered(url: string, changes: Record<string, string | null>): string {
  const out = new URL(url);
  for (const [name, value] of Object.entries(changes))
    if (value === null) out.searchParams.delete(name);
    else out.searchParams.set(name, value);
  return out.href;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = () => JSON.parse(bytes.toString()) as Record<string, unknown>;
  return { res, bytes, json };
}

const refused = (detail: string) => ({ detail, code: "forbidden" });
const invalid = refused("The attachment URL's signature is not valid.");
const keyPath = () => `${tracingUrl()}/runs/${run.id}/attachments/picture`;

describe("attachment presigned URLs", () => {
  it("are absolute, at the tracing base's /public/download, and expire an hour after the read", () => {
    const url = new URL(presigned);
    expect(`${url.origin}${url.pathname}`).toBe(`${tracingUrl()}/public/download`);
    expect(url.searchParams.get("run_id")).toBe(run.id);
    expect(url.searchParams.get("name")).toBe("picture");
    expect(url.searchParams.get("workspace")).toBe(tenant.workspaceId);
    const expires = Number(url.searchParams.get("expires"));
    const now = Date.now() / 1000;
    expect(expires).toBeGreaterThan(now + ATTACHMENT_URL_TTL_SECONDS - 120);
    expect(expires).toBeLessThanOrEqual(now + ATTACHMENT_URL_TTL_SECONDS + 1);
  });

  it("serve the bytes without an API key, as the key does", async () => {
    const got = await get(presigned);
    expect(got.res.status).toBe(200);
    expect(got.bytes.equals(picture)).toBe(true);
    expect(got.res.headers.get("content-type")).toBe("image/png");
    expect(got.res.headers.get("content-disposition")).toBe('attachment; filename="picture"');
    expect(got.res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.res.headers.get("content-security-policy")).toBe("sandbox");
    // No key: counted per address, on the Public download row.
    expect(got.res.headers.get("ratelimit-policy")).toBe('"public-download-ip";q=5000;w=60');
    // The run query hands out the same kind of URL.
    const query = await api("/api/v1/runs/query", {
      key: tenant.keys.viewer,
      method: "POST",
      body: { id: [run.id], select: ["s3_urls"] },
    });
    const notes = query.body.runs[0].s3_urls["attachment.notes"].presigned_url as string;
    expect((await get(notes)).bytes.toString()).toBe("some notes");
    // The key path still works with the key; at a signed URL, any key is beside the point.
    const keyed = await get(keyPath(), { "x-api-key": tenant.keys.viewer });
    expect(keyed.res.status).toBe(200);
    expect(keyed.bytes.equals(picture)).toBe(true);
    expect((await get(presigned, { "x-api-key": other.keys.viewer })).res.status).toBe(200);
  });

  it("refuse an altered URL with 403", async () => {
    const signature = new URL(presigned).searchParams.get("signature")!;
    const flipped = `${signature[0] === "0" ? "1" : "0"}${signature.slice(1)}`;
    const expires = Number(new URL(presigned).searchParams.get("expires"));
    const attempts = [
      altered(presigned, { signature: flipped }),
      altered(presigned, { expires: String(expires + 3600) }),
      altered(presigned, { workspace: other.workspaceId }),
      // Another attachment of the run, or another run, under the same signature.
      altered(presigned, { name: "notes" }),
      altered(presigned, { run_id: sdkRun().id }),
    ];
    for (const url of attempts) {
      const got = await get(url);
      expect(got.res.status, url).toBe(403);
      expect(got.json(), url).toEqual(invalid);
    }
  });

  it("refuse a URL missing a part or with a malformed one with 422, naming it", async () => {
    const attempts: [changes: Record<string, string | null>, field: string, type: string][] = [
      [{ signature: null }, "signature", "missing"],
      [{ signature: "" }, "signature", "string_pattern_mismatch"],
      [{ signature: "not hex" }, "signature", "string_pattern_mismatch"],
      [{ expires: null }, "expires", "missing"],
      [{ expires: "soon" }, "expires", "string_pattern_mismatch"],
      [{ workspace: null }, "workspace", "missing"],
      [{ workspace: "default" }, "workspace", "uuid_parsing"],
      [{ run_id: null }, "run_id", "missing"],
      [{ run_id: "not-a-run" }, "run_id", "uuid_parsing"],
      [{ name: null }, "name", "missing"],
      [{ name: "" }, "name", "string_too_short"],
    ];
    for (const [changes, field, type] of attempts) {
      const url = altered(presigned, changes);
      const got = await get(url);
      expect(got.res.status, url).toBe(422);
      expect(got.json(), url).toEqual({
        detail: [{ loc: ["query", field], msg: expect.any(String), type }],
      });
    }
    // No part at all: each one named.
    const bare = await get(`${tracingUrl()}/public/download`);
    expect(bare.res.status).toBe(422);
    const named = (bare.json().detail as { loc: string[] }[]).map((d) => d.loc[1]).sort();
    expect(named).toEqual(["expires", "name", "run_id", "signature", "workspace"]);
  });

  it("are no way in at the key path: a signature there answers as no key does", async () => {
    const query = new URL(presigned).search;
    const got = await get(`${keyPath()}${query}`);
    expect(got.res.status).toBe(401);
    expect(got.json().code).toBe("unauthorized");
    // With a key of the run's workspace it is the ordinary download; another's finds no run.
    expect(
      (await get(`${keyPath()}${query}`, { "x-api-key": tenant.keys.viewer })).res.status,
    ).toBe(200);
    expect((await get(`${keyPath()}${query}`, { "x-api-key": other.keys.viewer })).res.status).toBe(
      404,
    );
  });

  it("count on the Public download row (5000/60 per address), not the catch-all (100/60)", async () => {
    // More than the catch-all admits from one address in a minute: every one is served.
    const count = 110;
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let batch = 0; batch < count / 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await fetch(presigned);
          await res.arrayBuffer();
          return res;
        }),
      );
      for (const res of answers) {
        statuses.push(res.status);
        expect(res.headers.get("ratelimit-policy")).toBe('"public-download-ip";q=5000;w=60');
        expect(res.headers.get("x-ratelimit-limit")).toBe("5000");
        remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      }
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // Each download drew one from that row's bucket (other tests may draw from it too).
    expect(Math.max(...remaining)).toBeLessThan(5000);
    expect(Math.min(...remaining)).toBeLessThanOrEqual(5000 - count);
  });

  it("refuse an expired URL with 403", async () => {
    // Signed as a read an hour and a second ago would have.
    const expiresAt = Math.floor(Date.now() / 1000) - 1;
    const url = attachmentUrl(
      { base: tracingUrl(), workspaceId: tenant.workspaceId, expiresAt },
      run.id,
      "picture",
    );
    const got = await get(url);
    expect(got.res.status).toBe(403);
    expect(got.json()).toEqual(refused("The attachment URL has expired: read the run again."));
    // The same, unexpired, is served: only the time refused it.
    const fresh = attachmentUrl(
      { base: tracingUrl(), workspaceId: tenant.workspaceId, expiresAt: expiresAt + 60 },
      run.id,
      "picture",
    );
    expect((await get(fresh)).res.status).toBe(200);
  });

  it("find no run of another workspace: 404", async () => {
    const links = {
      base: tracingUrl(),
      workspaceId: other.workspaceId,
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    };
    const got = await get(attachmentUrl(links, run.id, "picture"));
    expect(got.res.status).toBe(404);
    expect(got.json()).toEqual({ detail: `Run ${run.id} not found`, code: "not_found" });
    // Nor does another workspace's key.
    expect((await get(keyPath(), { "x-api-key": other.keys.viewer })).res.status).toBe(404);
    // A name the run does not have, signed: 404 too.
    const missing = await get(
      attachmentUrl({ ...links, workspaceId: tenant.workspaceId }, run.id, "missing"),
    );
    expect(missing.res.status).toBe(404);
    expect(missing.json()).toEqual({
      detail: `Run ${run.id} has no attachment missing`,
      code: "not_found",
    });
  });
});
