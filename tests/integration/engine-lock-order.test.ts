import { describe, expect, it } from "vitest";
import { advance, type EngineContext } from "@/server/jobs/engine/context";
import type { Drivers } from "@/server/jobs/drivers";
import { createTenant, testDb } from "../helpers/fixtures";
import { insertDeployment } from "../helpers/revision-fixtures";

// The engine and the services lock a deployment's row before its revisions' rows. A revision
// reaching DEPLOYED also writes its deployment; taken in the other order, it deadlocked with a
// deletion that holds the deployment and stops its revisions (seen as a 500 from a bulk delete
// while the worker finished the same deployment's first revision).

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the engine's lock order", () => {
  it("a move that writes its deployment waits for a deletion holding it; neither fails", async () => {
    const db = testDb();
    const tenant = await createTenant();
    const deploymentId = await insertDeployment(tenant, "internal_container");
    const revision = await db.revision.findFirstOrThrow({ where: { deploymentId } });
    // Not queued: only this test moves it.
    await db.revision.update({ where: { id: revision.id }, data: { status: "DEPLOYING" } });
    const ctx: EngineContext = { db, drivers: {} as Drivers };

    let held!: () => void;
    const deploymentHeld = new Promise<void>((resolve) => (held = resolve));
    // What deleteDeployment does, with time between its two writes for the engine to arrive.
    const deletion = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM deployments WHERE id = ${deploymentId}::uuid FOR UPDATE`;
        await tx.deployment.update({
          where: { id: deploymentId },
          data: { status: "AWAITING_DELETE" },
        });
        held();
        await pause(500);
        await tx.revision.updateMany({
          where: { deploymentId, status: "DEPLOYING" },
          data: { status: "INTERRUPTED", statusMessage: "The deployment is being deleted." },
        });
      },
      { timeout: 10_000 },
    );
    await deploymentHeld;
    const deployed = advance(ctx, revision.id, {
      from: ["DEPLOYING"],
      to: "DEPLOYED",
      stream: "deploy",
      lines: ["Revision 1 deployed"],
      also: async (tx) => {
        await tx.deployment.updateMany({
          where: { id: deploymentId, status: { not: "AWAITING_DELETE" } },
          data: { activeRevisionId: revision.id, status: "READY" },
        });
      },
    });
    const [deletionResult, moved] = await Promise.allSettled([deletion, deployed]);
    expect(deletionResult.status).toBe("fulfilled");
    // The deletion stopped the revision first: the engine's move no longer applies.
    expect(moved).toEqual({ status: "fulfilled", value: false });
    const after = await db.revision.findUniqueOrThrow({ where: { id: revision.id } });
    expect(after.status).toBe("INTERRUPTED");
    const deployment = await db.deployment.findUniqueOrThrow({ where: { id: deploymentId } });
    expect(deployment.status).toBe("AWAITING_DELETE");
    expect(deployment.activeRevisionId).toBeNull();
  });
});
