import type { CodehostIntegration, DeploymentSource } from "@/generated/prisma/client";
import type { KubernetesObject } from "../manifests";

// The steps' side effects, behind interfaces: the defaults record what would happen; a cluster
// (and, later, a real image builder) plugs in by implementing these.

/** A failure the user can act on: the revision ends in the step's *_FAILED with this message. */
export class StepFailure extends Error {
  override name = "StepFailure";
  /** What the step did before it failed, for the revision's log. */
  readonly lines: string[];
  constructor(message: string, lines: string[] = []) {
    super(message);
    this.lines = lines;
  }
}

/** Where a deployer runs revisions: a cluster, or nowhere (the manifests are only recorded). */
export type Runtime = "kubernetes" | "dry_run";

export interface SourceInput {
  source: DeploymentSource;
  integration: CodehostIntegration | null;
  repoUrl: string | null;
  repoRef: string | null;
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
  deployment_id: string;
  repo_url: string | null;
  repo_commit_sha: string | null;
  source_tarball_path: string | null;
  graph_config_path: string | null;
  install_command: string | null;
  build_command: string | null;
  /** Packages whose versions the build reports (the deployment's tracked_packages). */
  tracked_packages?: string[];
}

/** Where a built image goes: a repository of Hangar's registry, with credentials for this build. */
export interface ImageTarget {
  /** `host[:port]` of the registry (HANGAR_REGISTRY_URL). */
  registry: string;
  /** `<workspace id>/<deployment name>`. */
  repository: string;
  /** The building workspace's id: its layer store, never another's. */
  workspace: string;
  /** One per revision. */
  tag: string;
  /** The registry is reached over plain HTTP (HANGAR_REGISTRY_API_URL `http://...`, tests). */
  insecure: boolean;
  /** A push token for this repository (pull on the workspace's others), valid for the build. */
  credentials: { username: string; password: string };
}

/** What a build step hands its builder besides the plan. */
export interface BuildIo {
  /** Appends lines to the revision's build log as they happen (never secret values). */
  log(lines: string[]): void;
  /** Aborted when the revision is interrupted or the build times out: stop at once. */
  signal: AbortSignal;
  /** Where the image goes; null when no registry is configured (nothing can be pushed). */
  target: ImageTarget | null;
}

export interface BuiltImage extends StepResult {
  /** What the deploy runs: `<registry>/<repository>@<digest>` for a pushed image. */
  imageRef: string;
  /** The pushed image's digest; null when nothing was built (dry run). */
  imageDigest: string | null;
  /** Kept on the revision with the plan (e.g. the generated Dockerfile). */
  record?: Record<string, unknown>;
}

/** What turns a project into an image (HANGAR_BUILDER); none: builds are a dry run. */
export type ImageBuilderName = "buildah" | "kubernetes";

export interface BuilderDriver {
  /** The image builder behind it; absent or null: nothing is built (a dry run). */
  readonly imageBuilder?: ImageBuilderName | null;
  build(plan: BuildPlan, io: BuildIo): Promise<BuiltImage>;
  /** Drops what the build consumed (an uploaded archive) once its outcome is recorded. */
  release?(plan: BuildPlan): Promise<void>;
}

export interface DeployerDriver {
  readonly name: string;
  readonly runtime: Runtime;
  /**
   * Creates or updates the objects (idempotent: applying twice changes nothing) and, on a real
   * runtime, waits until they run. Throws StepFailure with the reason when they do not.
   */
  apply(objects: KubernetesObject[]): Promise<StepResult>;
  /** Removes the objects (missing ones are fine). */
  teardown(objects: KubernetesObject[]): Promise<StepResult>;
}

export interface Drivers {
  source: SourceDriver;
  builder: BuilderDriver;
  deployer: DeployerDriver;
}
