import type { CodehostIntegration, DeploymentSource } from "@/generated/prisma/client";
import type { KubernetesObject } from "../manifests";

// The steps' side effects, behind interfaces: the defaults record what would happen; a cluster
// (and, later, a real image builder) plugs in by implementing these.

/** A failure the user can act on: the revision ends in the step's *_FAILED with this message. */
export class StepFailure extends Error {
  override name = "StepFailure";
}

export interface SourceInput {
  source: DeploymentSource;
  integration: CodehostIntegration | null;
  repoUrl: string | null;
  repoRef: string | null;
  graphConfigPath: string | null;
  /** A commit this revision is pinned to (a redeploy, a push): checked instead of the ref. */
  pinnedSha: string | null;
}

export interface StepResult {
  /** Log lines for the revision; never secret values. */
  lines: string[];
}

export interface SourceDriver {
  /** The commit the revision builds (null for sources without one). Throws StepFailure. */
  resolve(input: SourceInput): Promise<StepResult & { commitSha: string | null }>;
}

/** What the builder is asked to build: deterministic, so its hash names the image. */
export interface BuildPlan {
  source: DeploymentSource;
  repo_url: string | null;
  repo_commit_sha: string | null;
  source_tarball_path: string | null;
  graph_config_path: string | null;
  install_command: string | null;
  build_command: string | null;
}

export interface BuilderDriver {
  build(plan: BuildPlan): Promise<StepResult & { imageRef: string }>;
}

export interface DeployerDriver {
  readonly name: string;
  /** Creates or updates the objects (idempotent: applying twice changes nothing). */
  apply(objects: KubernetesObject[]): Promise<StepResult>;
  /** Removes the objects (missing ones are fine). */
  teardown(objects: KubernetesObject[]): Promise<StepResult>;
}

export interface Drivers {
  source: SourceDriver;
  builder: BuilderDriver;
  deployer: DeployerDriver;
}
