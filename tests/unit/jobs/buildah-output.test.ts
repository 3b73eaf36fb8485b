import { describe, expect, it } from "vitest";
import { buildFailure, pushFailure } from "../../../src/server/jobs/builder/images/buildah-output";

// buildah's words when a build fails (as printed by buildah 1.28), turned into the revision's
// status message: the step, the reason, the step's last lines.

describe("a failed buildah build", () => {
  it("names the failing step, buildah's reason and the step's last lines", () => {
    const failure = buildFailure([
      "STEP 1/6: FROM 127.0.0.1:5000/ws/base:3.11",
      "STEP 2/6: ADD . /deps/app",
      "--> 7a48de5fb8d",
      'STEP 5/6: RUN cd /deps/app && echo "building" && exit 3',
      "building",
      "oops",
      "subprocess exited with status 3",
      'Error: building at STEP "RUN cd /deps/app && echo "building" && exit 3": exit status 3',
    ]);
    expect(failure.message).toBe(
      'STEP 5/6: RUN cd /deps/app && echo "building" && exit 3 failed (exit status 3). Its last lines:\n  building\n  oops',
    );
    expect(failure.lines).toEqual([]);
  });

  it("says why a FROM failed, and keeps only the last lines of a long step", () => {
    const pull = buildFailure([
      "STEP 1/5: FROM 127.0.0.1:5000/other/base:3.11",
      "Trying to pull 127.0.0.1:5000/other/base:3.11...",
      "Error: creating build container: reading manifest 3.11 in 127.0.0.1:5000/other/base: unauthorized",
    ]);
    expect(pull.message).toBe(
      "STEP 1/5: FROM 127.0.0.1:5000/other/base:3.11 failed (creating build container: reading manifest 3.11 in 127.0.0.1:5000/other/base: unauthorized).",
    );
    const long = buildFailure([
      "[1/2] STEP 3/4: RUN make",
      ...Array.from({ length: 30 }, (_, i) => `line ${i}`),
      'Error: building at STEP "RUN make": exit status 2',
    ]);
    expect(long.message.split("\n")).toEqual([
      "STEP 3/4: RUN make failed (exit status 2). Its last lines:",
      ...Array.from({ length: 10 }, (_, i) => `  line ${20 + i}`),
    ]);
  });

  it("names the image a push could not reach", () => {
    expect(
      pushFailure("127.0.0.1:5000/ws/app:r1", [
        "Getting image source signatures",
        "Error: pushing image: unauthorized: authentication required",
      ]).message,
    ).toBe(
      "Pushing 127.0.0.1:5000/ws/app:r1 failed: pushing image: unauthorized: authentication required",
    );
  });
});
