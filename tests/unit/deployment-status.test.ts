import { describe, expect, it } from "vitest";
import {
  deploymentDisplayStatus,
  type RevisionSummary,
  type StatusInput,
} from "../../src/schemas/deployment-status";
import type { RevisionStatus } from "../../src/schemas/revisions";

// The dashboard's one reading of a deployment's status with its latest and active revisions.

const deployment = (patch: Partial<StatusInput> = {}): StatusInput => ({
  status: "AWAITING_DATABASE",
  source: "codehost",
  runtime: null,
  latest_revision_id: "r4",
  active_revision_id: null,
  ...patch,
});
const revision = (
  number: number,
  status: RevisionStatus,
  status_message: string | null = null,
): RevisionSummary => ({ id: `r${number}`, number, status, status_message });

describe("deploymentDisplayStatus", () => {
  it("says a deployment whose only revision failed creating is failed, and why", () => {
    const latest = revision(1, "CREATE_FAILED", "branch nonexistent-branch not found");
    const status = deploymentDisplayStatus(deployment({ latest_revision_id: "r1" }), latest, null);
    expect(status).toMatchObject({
      kind: "failed",
      label: "Failed",
      tone: "red",
      reason: "Revision #1 create failed: branch nonexistent-branch not found",
      note: null,
    });
  });

  it("names the revision still serving beside a failed newer one", () => {
    const status = deploymentDisplayStatus(
      deployment({ status: "READY", active_revision_id: "r3", runtime: "kubernetes" }),
      revision(4, "DEPLOY_FAILED"),
      revision(3, "DEPLOYED"),
    );
    expect(status).toMatchObject({
      kind: "failed",
      reason: "Revision #4 deploy failed",
      note: "revision #3 still live",
    });
  });

  it("is live on the active revision, or a dry run when nothing runs", () => {
    const live = deployment({
      status: "READY",
      latest_revision_id: "r3",
      active_revision_id: "r3",
      runtime: "kubernetes",
    });
    const r3 = revision(3, "DEPLOYED");
    expect(deploymentDisplayStatus(live, r3, null)).toMatchObject({
      kind: "live",
      label: "Live, revision #3",
      tone: "green",
    });
    expect(deploymentDisplayStatus({ ...live, runtime: "dry_run" }, r3, r3)).toMatchObject({
      kind: "dry_run",
      label: "Dry run, revision #3",
    });
  });

  it("is deploying while the latest revision moves, every in-flight status alike", () => {
    for (const s of ["QUEUED", "AWAITING_BUILD", "BUILDING", "DEPLOYING"] as const) {
      expect(deploymentDisplayStatus(deployment(), revision(4, s), null)).toMatchObject({
        kind: "deploying",
        label: "Deploying #4",
        pulse: true,
      });
    }
  });

  it("waits for a first upload or image when there is no revision yet", () => {
    const none = { latest_revision_id: null };
    expect(
      deploymentDisplayStatus(deployment({ ...none, source: "internal_source" }), null, null).label,
    ).toBe("Waiting for first upload");
    expect(
      deploymentDisplayStatus(deployment({ ...none, source: "internal_container" }), null, null)
        .label,
    ).toBe("Waiting for first image");
  });

  it("says deleting before anything else", () => {
    const status = deploymentDisplayStatus(
      deployment({ status: "AWAITING_DELETE" }),
      revision(4, "BUILD_FAILED"),
      null,
    );
    expect(status).toMatchObject({ kind: "deleting", label: "Deleting", pulse: true });
  });

  it("tells an interrupted first revision from one never deployed", () => {
    expect(deploymentDisplayStatus(deployment(), revision(4, "INTERRUPTED"), null).label).toBe(
      "Interrupted #4",
    );
    expect(deploymentDisplayStatus(deployment(), revision(4, "SKIPPED"), null).kind).toBe("idle");
  });
});
