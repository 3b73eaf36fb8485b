import { projectBuilder } from "../../src/server/jobs/builder/project-builder";
import { uploadContext } from "../../src/server/jobs/builder/upload-context";
import { recordingBuilder } from "../../src/server/jobs/drivers/recording";
import type { BuildIo, BuildPlan, ImageTarget } from "../../src/server/jobs/drivers/types";
import type { UploadStore } from "../../src/server/storage/types";

/** A build's io for driver tests: the lines it logged as it went, never aborted unless asked. */
export function testIo(target: ImageTarget | null = null, signal = new AbortController().signal) {
  const logged: string[] = [];
  const io: BuildIo = { log: (lines) => void logged.push(...lines), signal, target };
  return { io, logged };
}

/** A dry-run project builder over an upload store, and the plan of one of its uploads. */
export function uploadBuild(store: UploadStore, contextsDir: string, objectPath: string) {
  const builder = projectBuilder(recordingBuilder(), {
    contextsDir,
    sources: { internal_source: uploadContext({ maxBytes: 1024 * 1024, maxFiles: 100 }, store) },
    images: null,
  });
  const plan: BuildPlan = {
    source: "internal_source",
    deployment_id: objectPath.split("/")[1]!,
    repo_url: null,
    repo_commit_sha: null,
    source_tarball_path: objectPath,
    graph_config_path: "langgraph.json",
    install_command: null,
    build_command: null,
  };
  return { builder, plan };
}
