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
// do: signed for its workspace, run, name and an hour; an altered or expired one is a 403, and
// one naming another workspace finds no run there.

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

describe("attachment presigned URLs", () => {
  it("are absolute, at the tracing base, and expire an hour after the read", () => {
    const url = new URL(presigned);
    expect(`${url.origin}${url.pathname}`).toBe(
      `${tracingUrl()}/runs/${run.id}/attachments/picture`,
    );
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
    // No key: counted per address.
    expect(got.res.headers.get("ratelimit-policy")).toBe('"catch-all-ip";q=100;w=60');
    // The run query hands out the same kind of URL.
    const query = await api("/api/v1/runs/query", {
      key: tenant.keys.viewer,
      method: "POST",
      body: { id: [run.id], select: ["s3_urls"] },
    });
    const notes = query.body.runs[0].s3_urls["attachment.notes"].presigned_url as string;
    expect((await get(notes)).bytes.toString()).toBe("some notes");
    // The key alone still works; with a signed URL, any key is beside the point.
    const keyed = await fetch(`${tracingUrl()}/runs/${run.id}/attachments/picture`, {
      headers: { "x-api-key": tenant.keys.viewer },
    });
    expect(keyed.status).toBe(200);
    expect((await get(presigned, { "x-api-key": other.keys.viewer })).res.status).toBe(200);
  });

  it("refuse an altered URL with 403", async () => {
    const signature = new URL(presigned).searchParams.get("signature")!;
    const flipped = `${signature[0] === "0" ? "1" : "0"}${signature.slice(1)}`;
    const expires = Number(new URL(presigned).searchParams.get("expires"));
    const attempts = [
      altered(presigned, { signature: flipped }),
      altered(presigned, { signature: "" }),
      altered(presigned, { expires: String(expires + 3600) }),
      altered(presigned, { expires: null }),
      altered(presigned, { workspace: other.workspaceId }),
      altered(presigned, { workspace: null }),
      // Another attachment of the run, or another run, under the same signature.
      presigned.replace("/attachments/picture?", "/attachments/notes?"),
      presigned.replace(run.id, sdkRun().id),
    ];
    for (const url of attempts) {
      const got = await get(url);
      expect(got.res.status, url).toBe(403);
      expect(got.json(), url).toEqual(invalid);
    }
    // Without its signature it is no presigned URL: the API key is asked for.
    expect((await get(altered(presigned, { signature: null }))).res.status).toBe(401);
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
    const theirs = await fetch(`${tracingUrl()}/runs/${run.id}/attachments/picture`, {
      headers: { "x-api-key": other.keys.viewer },
    });
    expect(theirs.status).toBe(404);
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
