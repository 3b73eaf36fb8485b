import type { RevisionStatus } from "../../src/generated/prisma/enums";
import type { Db } from "../../src/server/db";
import { TERMINAL_STATUSES } from "../../src/schemas/revision-states";
import { gateClient } from "../../testing/gate";
import { inject } from "vitest";
import { testDb } from "./fixtures";
import { api } from "./http";

// Waiting on the revision engine, which runs beside the tests in its own process.

/** The test worker's gate: hold a step (of one deployment) to see a revision mid-flight. */
export const engineGate = () => gateClient(inject("gateUrl"));

export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 15_000, what = "condition" } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Final statuses, from the one state table. */
export const FINAL: RevisionStatus[] = TERMINAL_STATUSES;

/** The revision once it reaches one of `statuses` (by default: any final status). */
export const waitForRevision = (
  revisionId: string,
  statuses: RevisionStatus[] = FINAL,
  options: { db?: Db; timeoutMs?: number } = {},
) =>
  waitFor(
    () => (options.db ?? testDb()).revision.findUniqueOrThrow({ where: { id: revisionId } }),
    (r) => statuses.includes(r.status),
    { timeoutMs: options.timeoutMs, what: `revision ${revisionId} in ${statuses.join("|")}` },
  );

/** Polls GET until the deployment is gone (404). */
export const waitForDeploymentGone = (key: string, deploymentId: string) =>
  waitFor(
    () => api(`/v2/deployments/${deploymentId}`, { key }),
    (res) => res.status === 404,
    { timeoutMs: 10_000, what: `deployment ${deploymentId} to be deleted` },
  );
