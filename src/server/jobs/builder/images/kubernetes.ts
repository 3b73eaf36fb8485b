import { randomBytes } from "node:crypto";
import type { KubeConfig } from "@kubernetes/client-node";
import type { DbClient } from "@/server/db";
import { AppError } from "@/server/errors";
import { dropBuildContext, publishBuildContext } from "@/server/services/build-contexts";
import type { BuildEgress } from "@/server/outbound/build-egress";
import { systemLookup, type Lookup } from "@/server/outbound/resolve";
import { StepFailure } from "../../drivers/types";
import type { BuildBounds } from "../bounds";
import type { ImageBuilder } from "../types";
import { imageOf } from "./build-job";
import { runBuildJob, type JobRunOptions } from "./build-job-run";
import { applyBuildNetworkPolicy, buildNetworkRule } from "./build-network-apply";
import { buildNetworkPolicy } from "./build-network-policy";
import { packContext } from "./context-archive";

// Builds in a cluster (HANGAR_BUILDER=kubernetes): the prepared folder is packed into the upload
// store behind a signed URL that works once, and one Job in HANGAR_BUILD_NAMESPACE fetches it,
// builds it with BuildKit (rootless, daemonless) and pushes the image (build-job-run.ts). Before
// the Job, the namespace's NetworkPolicy for build pods is made to say HANGAR_BUILD_EGRESS. The
// packed context is dropped when the build ends, whatever its outcome.

export const NO_PUBLIC_URL =
  "Kubernetes builds fetch their context from Hangar's public URL: set HANGAR_PUBLIC_URL to an address the build namespace's pods can reach (README, Builds).";

export interface KubernetesBuilderOptions {
  kubeconfig: KubeConfig;
  /** HANGAR_BUILD_NAMESPACE */
  namespace: string;
  /** HANGAR_BUILD_IMAGE: a BuildKit rootless image (buildctl-daemonless.sh). */
  builderImage: string;
  /** HANGAR_BUILD_FETCH_IMAGE: has sh, wget, sha256sum and tar (busybox). */
  fetchImage: string;
  /** HANGAR_BUILD_TIMEOUT_SECONDS: the Job's deadline. */
  timeoutSeconds: number;
  /** HANGAR_PUBLIC_URL: where the build pod fetches its context. */
  publicUrl: string | undefined;
  /** HANGAR_BUILD_CPUS, _MEMORY, _DISK: the build pod's requests and limits. */
  bounds: BuildBounds;
  /** HANGAR_BUILD_EGRESS: the build pods' NetworkPolicy. */
  egress: BuildEgress;
  /** How names in that policy are resolved (the system's resolver). */
  resolve?: Lookup;
  /** The database the context's row lives in (the server's: it serves the URL). */
  db: () => DbClient;
  run?: Partial<JobRunOptions>;
}

export function kubernetesImageBuilder(options: KubernetesBuilderOptions): ImageBuilder {
  return {
    name: "kubernetes",
    async build({ contextDir, dockerfile, target }, io) {
      if (!options.publicUrl) throw new StepFailure(NO_PUBLIC_URL);
      io.signal.throwIfAborted();
      const db = options.db();
      const packed = packContext(contextDir);
      // As long as the build may run: the pod fetches it once a node has taken it.
      const expiresAt = Math.floor(Date.now() / 1000) + options.timeoutSeconds;
      const context = await publishBuildContext(db, {
        archive: packed.archive,
        origin: options.publicUrl,
        expiresAt,
      }).catch((error: unknown) => {
        if (error instanceof AppError) throw new StepFailure(error.message);
        throw error;
      });
      try {
        io.log([`Building ${imageOf(target)} in Kubernetes (context sha256:${packed.sha256()})`]);
        const policy = buildNetworkPolicy(
          await buildNetworkRule({
            namespace: options.namespace,
            egress: options.egress,
            publicUrl: options.publicUrl,
            target,
            resolve: options.resolve ?? systemLookup,
          }),
        );
        const applied = await applyBuildNetworkPolicy(options.kubeconfig, policy);
        io.log([
          `Build pods' NetworkPolicy ${options.namespace}/${policy.metadata!.name}: ${applied}`,
        ]);
        return await runBuildJob(
          options.kubeconfig,
          {
            id: randomBytes(5).toString("hex"),
            namespace: options.namespace,
            builderImage: options.builderImage,
            fetchImage: options.fetchImage,
            timeoutSeconds: options.timeoutSeconds,
            contextSha256: packed.sha256(),
            dockerfile,
            target,
            bounds: options.bounds,
          },
          context.url,
          io,
          { pollMs: 2_000, drainMs: 10_000, ...options.run },
        );
      } finally {
        await dropBuildContext(db, context.id);
      }
    },
  };
}
