import { describe, expect, it } from "vitest";
import {
  BuildahOutput,
  buildFailure,
  pushFailure,
} from "../../../src/server/jobs/builder/images/buildah-output";

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

  it("keeps only what a failure needs while buildah runs, however much a step prints", () => {
    const output = new BuildahOutput();
    output.add("STEP 1/3: FROM base");
    output.add("Error: an earlier complaint");
    output.add("STEP 3/3: RUN flood");
    for (let i = 0; i < 100_000; i++) output.add(`flood line ${i}`);
    output.add("subprocess exited with status 1");
    output.add('Error: building at STEP "RUN flood": exit status 1');
    const lines = output.lines();
    expect(lines.length).toBeLessThanOrEqual(52);
    expect(lines[0]).toBe("STEP 3/3: RUN flood");
    expect(buildFailure(lines).message.split("\n")).toEqual([
      "STEP 3/3: RUN flood failed (exit status 1). Its last lines:",
      ...Array.from({ length: 10 }, (_, i) => `  flood line ${99_990 + i}`),
    ]);

    // buildah's reason is kept even when the step printed on after it.
    const after = new BuildahOutput();
    after.add("STEP 2/2: RUN chatty");
    after.add("Error: the reason");
    for (let i = 0; i < 500; i++) after.add(`chatter ${i}`);
    expect(buildFailure(after.lines()).message).toMatch(
      /^STEP 2\/2: RUN chatty failed \(the reason\)/,
    );
  });
});
