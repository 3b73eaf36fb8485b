import { describe, expect, it } from "vitest";
import { imagesOf } from "../../../src/server/jobs/builder/sandbox/dockerfile-images";
import { StepFailure } from "../../../src/server/jobs/drivers/types";

// What a build pulls with its own credentials before its steps run: every image its Dockerfile
// reads, and never a stage of its own.

describe("the images a Dockerfile reads", () => {
  it("names the base, --from images of COPY, ADD and RUN --mount, not stages or scratch", () => {
    const dockerfile = [
      "FROM registry.test/ws-a/base:3.11",
      "# FROM commented/out",
      "COPY --from=registry.test/ws-b/secret:1 /etc/x /x",
      "RUN --mount=type=bind,from=registry.test/ws-c/tools:2,target=/t \\",
      "    ls /t",
      "FROM scratch AS assets",
      "COPY --from=0 /deps /deps",
      "ADD --chown=1 --from=assets /deps /again",
      "FROM assets",
      "COPY --from=registry.test/ws-a/base:3.11 /a /a",
    ].join("\n");
    expect(imagesOf(dockerfile)).toEqual([
      "registry.test/ws-a/base:3.11",
      "registry.test/ws-b/secret:1",
      "registry.test/ws-c/tools:2",
    ]);
  });

  it("resolves names built from ARGs declared above them", () => {
    expect(
      imagesOf('ARG REG=registry.test\nARG TAG="1.2"\nFROM ${REG}/base:$TAG\nCOPY --from=$REG/x /a /b'),
    ).toEqual(["registry.test/base:1.2", "registry.test/x"]);
  });

  it("refuses a name whose variable has no value", () => {
    expect(() => imagesOf("FROM base\nCOPY --from=${SOMEWHERE}/x /a /b")).toThrow(StepFailure);
    expect(() => imagesOf("FROM base\nCOPY --from=${SOMEWHERE}/x /a /b")).toThrow(
      "The Dockerfile names an image through $SOMEWHERE, which has no value here: name the image itself (dockerfile_lines).",
    );
  });
});
