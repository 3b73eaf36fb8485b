import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { CodehostIntegration } from "@/generated/prisma/client";
import { getDb } from "@/server/db";
import {
  ArchiveFailure,
  describeArchiveError,
  type ArchiveOptions,
} from "@/server/integrations/codehost/archive";
import type { CodehostClient } from "@/server/integrations/codehost/client";
import { repoOf } from "@/server/integrations/codehost/repo-url";
import { codehostClientFor } from "@/server/services/codehost-integrations";
import { StepFailure, type BuildPlan } from "../drivers/types";
import { unpackArchive, type ArchiveLimits } from "./archive";
import type { ContextSource } from "./types";

// A code-host repository (codehost) as a build's files: its archive at the revision's pinned
// commit, fetched through the code host's API with the deployment's integration (redirects
// followed under the outbound rules, integrations/codehost/archive.ts), unpacked as it streams
// under the containment rule with the archive's one top folder as the root.

export interface CodehostContextOptions {
  limits: ArchiveLimits;
  /** The download's caps: compressed bytes and time. */
  download: Pick<ArchiveOptions, "maxBytes" | "timeoutMs">;
  /** The deployment's integration now; null when it is gone. */
  integrationOf?: (plan: BuildPlan) => Promise<CodehostIntegration | null>;
  clientFor?: (integration: CodehostIntegration) => CodehostClient;
}

/** The unpacked paths the log lists before it only counts them. */
const LISTED_FILES = 50;

const deploymentIntegration = async (plan: BuildPlan) =>
  (
    await getDb().deployment.findUnique({
      where: { id: plan.deployment_id },
      select: { integration: true },
    })
  )?.integration ?? null;

export function codehostContext(options: CodehostContextOptions): ContextSource {
  const integrationOf = options.integrationOf ?? deploymentIntegration;
  const clientFor = options.clientFor ?? codehostClientFor;
  return {
    async fetch(plan, dir, io) {
      const location = plan.repo_url ? repoOf(plan.repo_url) : null;
      if (!location)
        throw new StepFailure(`repo_url "${plan.repo_url}" does not name a repository.`);
      const sha = plan.repo_commit_sha;
      if (!sha) throw new StepFailure("The revision names no commit (repo_commit_sha) to build.");
      const integration = await integrationOf(plan);
      if (!integration)
        throw new StepFailure("The deployment's code-host integration no longer exists.");
      const { owner, repo } = location;
      const what = `${owner}/${repo} at ${sha}`;
      const fail = (error: unknown): never => {
        if (error instanceof ArchiveFailure)
          throw new StepFailure(`Could not fetch ${what}: ${error.message}.`);
        throw error;
      };
      io.log([`Fetching ${what} from ${new URL(integration.apiBaseUrl).origin}`]);
      const archiveOptions = { ...options.download, signal: io.signal };
      const archive = await clientFor(integration)
        .downloadArchive(owner, repo, sha, archiveOptions)
        .catch(fail);
      io.log(archive.redirects.map((origin) => `Redirected to ${origin}`));

      let received = 0;
      let downloadError: unknown = null;
      const counted = archive.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            received += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      const body = Readable.fromWeb(counted as NodeReadableStream<Uint8Array>);
      // Heard before the unpacker's own listener, so a failed download is told from a bad tar.
      body.on("error", (error) => (downloadError ??= error));
      const unpacked = await unpackArchive(body, dir, options.limits, { stripTopFolder: true })
        .catch((error: unknown) => {
          if (downloadError) fail(describeArchiveError(downloadError, archiveOptions));
          throw error;
        })
        .finally(() => body.destroy());

      const links = Object.keys(unpacked.links).length;
      const files = [...unpacked.files].sort();
      return {
        unpacked,
        lines: [
          `Fetched ${what}: ${received} bytes`,
          `Unpacked ${files.length} files${links ? ` and ${links} links` : ""} (${unpacked.bytes} bytes):`,
          ...files.slice(0, LISTED_FILES).map((file) => `  ${file}`),
          ...(files.length > LISTED_FILES ? [`  ... and ${files.length - LISTED_FILES} more`] : []),
        ],
      };
    },
  };
}
