import { registryConfig, repositoryOf } from "@/server/registry/config";
import { issueBuildToken, revokeBuildToken } from "@/server/services/registry/push-tokens";
import { PUSH_TOKEN_USER } from "@/server/services/registry/token-endpoint";
import type { ImageTarget } from "../drivers/types";
import type { EngineContext, EngineRevision } from "./context";

// Where a build pushes its image: the deployment's repository in Hangar's registry, a tag per
// revision, and a push token of the build's own that lives as long as the build may.

export interface BuildTarget {
  target: ImageTarget;
  /** Revokes the build's token: its build has ended. */
  release(): Promise<void>;
}

/** Null when nothing is pushed: no image builder (a dry run), or no registry. */
export async function buildTargetOf(
  ctx: EngineContext,
  revision: EngineRevision,
  ttlSeconds: number,
): Promise<BuildTarget | null> {
  const config = registryConfig();
  if (!ctx.drivers.builder.imageBuilder || !config) return null;
  const token = await issueBuildToken(
    ctx.db,
    {
      id: revision.id,
      deploymentId: revision.deploymentId,
      workspaceId: revision.deployment.workspaceId,
    },
    ttlSeconds,
  );
  return {
    target: {
      registry: config.host,
      repository: repositoryOf(revision.deployment),
      workspace: revision.deployment.workspaceId,
      tag: `r${revision.number}-${revision.id}`,
      insecure: config.insecure,
      credentials: { username: PUSH_TOKEN_USER, password: token.token },
    },
    release: () => revokeBuildToken(ctx.db, token.id),
  };
}
