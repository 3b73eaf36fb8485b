import type {
  BuildIo,
  BuildPlan,
  ImageBuilderName,
  ImageTarget,
  StepResult,
} from "../drivers/types";
import type { Unpacked } from "./archive";

// The two halves of building a project (project-builder.ts): a source fills a folder with the
// project's files, an image builder turns the prepared folder into an image in the registry.

/** Fills a build folder with a project's files (an upload, a repository at a commit). */
export interface ContextSource {
  /** Unpacks into `dir` under the containment rule; throws StepFailure naming the problem. */
  fetch(plan: BuildPlan, dir: string, io: BuildIo): Promise<StepResult & { unpacked: Unpacked }>;
  /** Drops what the build consumed (an uploaded archive) once its outcome is recorded. */
  release?(plan: BuildPlan): Promise<void>;
}

/** The request an image builder gets: a prepared folder and where the image goes. */
export interface ImageBuild {
  /** The build context, with the generated Dockerfile in it. */
  contextDir: string;
  /** The Dockerfile's name inside contextDir. */
  dockerfile: string;
  target: ImageTarget;
}

/** Turns a prepared folder into an image in the registry (buildah here, a Job in a cluster). */
export interface ImageBuilder {
  readonly name: ImageBuilderName;
  /** Streams its output through io.log; throws StepFailure with the failing step's last lines. */
  build(request: ImageBuild, io: BuildIo): Promise<{ digest: string }>;
}
