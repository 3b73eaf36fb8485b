import { beforeAll, describe, expect, it } from "vitest";
import type { CreateDeploymentInput } from "../../src/schemas/deployments";
import type { Actor } from "../../src/server/auth/actor";
import { createCaller } from "../../src/server/api/root";
import { validDeployment } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

const caller = (actor: Actor | null) => createCaller({ db: testDb(), requestId: "trpc", actor });

describe("tRPC deployments.nameAvailable", () => {
  it("is false for a name taken in this workspace only, and exact", async () => {
    const created = await caller(tenant.actors.editor).deployments.create(
      validDeployment("internal_container") as CreateDeploymentInput,
    );
    const viewer = caller(tenant.actors.viewer);
    expect(await viewer.deployments.nameAvailable({ name: created.name })).toEqual({
      available: false,
    });
    // A name containing a taken one is free: the check is exact, not a substring search.
    expect(await viewer.deployments.nameAvailable({ name: `${created.name}x` })).toEqual({
      available: true,
    });
    expect(
      await caller(other.actors.viewer).deployments.nameAvailable({ name: created.name }),
    ).toEqual({ available: true });

    // A deployment being deleted still holds its name until its row is gone.
    await caller(tenant.actors.editor).deployments.delete({ id: created.id });
    // The worker may remove the row at any moment: bracket the check between two reads.
    const find = () => testDb().deployment.findUnique({ where: { id: created.id } });
    const before = await find();
    const { available } = await viewer.deployments.nameAvailable({ name: created.name });
    const after = await find();
    if (after !== null) expect(available).toBe(false);
    if (before === null) expect(available).toBe(true);
  });

  it("refuses a name that is not a DNS label, and callers without a session", async () => {
    const viewer = caller(tenant.actors.viewer);
    await expect(viewer.deployments.nameAvailable({ name: "Not_A_Label" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller(null).deployments.nameAvailable({ name: "ok" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
