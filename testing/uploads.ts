import { Readable } from "node:stream";
import type { Actor } from "../src/server/auth/actor";
import type { Db } from "../src/server/db";
import { createDeployment } from "../src/server/services/deployments/create";
import { patchDeployment } from "../src/server/services/deployments/patch";
import { acceptUpload, createUploadUrl } from "../src/server/services/uploads";

// An archive uploaded through the services, as the deploy client's upload-url call and signed PUT
// would make it: for tests and benchmarks that drive the engine without the HTTP doors.

/** Issues an upload URL for the deployment, PUTs `archive` to it, and answers its object path. */
export async function uploadArchive(
  db: Db,
  actor: Actor,
  deploymentId: string,
  archive: Buffer,
  origin = "http://hangar.test",
): Promise<string> {
  const issued = await createUploadUrl(db, actor, deploymentId, origin);
  const url = new URL(issued.upload_url);
  await acceptUpload(db, {
    deploymentId,
    uploadId: url.pathname.split("/").at(-1)!,
    expires: url.searchParams.get("expires"),
    signature: url.searchParams.get("signature"),
    headers: new Headers({ "Content-Type": "application/gzip" }),
    body: Readable.toWeb(Readable.from(archive)),
  });
  return issued.object_path;
}

/**
 * An uploaded source deployment as the deploy client makes one (create, upload, PATCH naming the
 * upload), through the services: the deployment with its new revision.
 */
export async function deployUploadedSource(
  db: Db,
  actor: Actor,
  input: {
    name: string;
    archive: Buffer;
    sourceConfig?: Record<string, unknown>;
    /** Called with the deployment before its revision is cut (a test holds its build then). */
    beforeRevision?: (deploymentId: string) => Promise<void>;
  },
) {
  const created = await createDeployment(db, actor, {
    name: input.name,
    source: "internal_source",
    source_config: input.sourceConfig ?? {},
    source_revision_config: {},
  } as Parameters<typeof createDeployment>[2]);
  await input.beforeRevision?.(created.id);
  const objectPath = await uploadArchive(db, actor, created.id, input.archive);
  const patched = await patchDeployment(db, actor, created.id, {
    source_revision_config: {
      source_tarball_path: objectPath,
      graph_config_path: "langgraph.json",
    },
  });
  return patched.deployment;
}
