import { expect } from "vitest";
import type { BuildStack } from "./build-stack";
import { waitForRevision } from "./engine";
import { tarGz, type TarEntry } from "./tarball";

export { pythonProject } from "./python-project";
import { buildUpload, createForUpload, issueUploadUrl, putUpload } from "./uploads";

// Builds on a build stack (build-stack.ts) as the deploy client makes them: a project uploaded,
// the PATCH that cuts its revision, the revision's end and its build log.

export function stackBuilds(stack: () => BuildStack) {
  /** A new deployment awaiting an upload, named `prefix-<time>`. */
  const deployment = (key: string, prefix: string) =>
    createForUpload(key, `${prefix}-${Date.now().toString(36)}`, stack().baseUrl);

  /** The client's upload and PATCH; the revision it cut. */
  async function uploadAndBuild(
    key: string,
    deploymentId: string,
    entries: TarEntry[],
    sourceConfig?: { build_command?: string; install_command?: string },
  ): Promise<string> {
    const { baseUrl } = stack();
    const { upload_url, object_path } = await issueUploadUrl(key, deploymentId, baseUrl);
    expect((await putUpload(upload_url, tarGz(entries))).status).toBe(200);
    const patched = await buildUpload(key, deploymentId, object_path, { baseUrl, sourceConfig });
    expect(patched.status, patched.text).toBe(200);
    return patched.body.latest_revision_id as string;
  }

  const buildLog = async (revisionId: string) =>
    (
      await stack().db.revisionLog.findMany({
        where: { revisionId, stream: "build" },
        orderBy: { seq: "asc" },
      })
    ).map((l) => l.line);

  const finished = (revisionId: string, timeoutMs = 90_000) =>
    waitForRevision(revisionId, undefined, { db: stack().db, timeoutMs });

  return { deployment, uploadAndBuild, buildLog, finished };
}
