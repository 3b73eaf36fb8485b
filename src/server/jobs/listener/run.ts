import { randomUUID } from "node:crypto";
import type { ListenerWork } from "@/schemas/listeners";
import { describeError, log } from "@/server/log";
import { StepFailure, type DeployerDriver } from "../drivers/types";
import type { KubernetesObject } from "../manifests";
import type { ProtocolClient } from "./client";

// One listener replica: long-poll for a revision, apply it with the Kubernetes driver, wait for
// the rollout, report. The lease is renewed while it works; if Hangar says the revision moved on
// or another replica holds it, this replica stops reporting on it.

export interface ListenerOptions {
  client: ProtocolClient;
  deployer: DeployerDriver;
  replicaId: string;
  waitSeconds: number;
  signal: AbortSignal;
}

async function applyWork(options: ListenerOptions, work: ListenerWork): Promise<void> {
  const { client, deployer, replicaId, signal } = options;
  const report = (body: {
    status?: "DEPLOYED" | "DEPLOY_FAILED";
    message?: string;
    lines?: string[];
  }) =>
    client.report(
      work.revision_id,
      { replica_id: replicaId, report_id: randomUUID(), lines: body.lines ?? [], ...body },
      signal,
    );
  const leaseMs = Math.max(1_000, Date.parse(work.lease_expires_at) - Date.now());
  const renew = setInterval(() => {
    report({}).catch((error) =>
      log.warn("lease renewal failed", { revision_id: work.revision_id, ...describeError(error) }),
    );
  }, leaseMs / 3);
  try {
    await report({
      lines: [
        `Applying ${work.objects.length} objects in namespace ${work.namespace} (replica ${replicaId})`,
      ],
    });
    let outcome: { status: "DEPLOYED" | "DEPLOY_FAILED"; message?: string; lines: string[] };
    try {
      const applied = await deployer.apply(work.objects as unknown as KubernetesObject[]);
      outcome = {
        status: "DEPLOYED",
        lines: [...applied.lines, `Revision ${work.revision_number} deployed`],
      };
    } catch (error) {
      const message =
        error instanceof StepFailure
          ? error.message
          : `The listener could not apply the revision: ${(error as Error).message}`;
      outcome = {
        status: "DEPLOY_FAILED",
        message,
        lines: error instanceof StepFailure ? error.lines : [],
      };
    }
    clearInterval(renew);
    const answer = await report(outcome);
    log.info("revision reported", { revision_id: work.revision_id, status: answer.status });
  } finally {
    clearInterval(renew);
  }
}

/** Runs until `signal` aborts. */
export async function runListener(options: ListenerOptions): Promise<void> {
  log.info("listener started", { replica_id: options.replicaId });
  while (!options.signal.aborted) {
    let work: ListenerWork | null;
    try {
      work = await options.client.claimWork(options.replicaId, options.waitSeconds, options.signal);
    } catch (error) {
      if (options.signal.aborted) break;
      log.warn("could not reach Hangar", describeError(error));
      await new Promise((r) => setTimeout(r, 2_000));
      continue;
    }
    if (!work) continue;
    log.info("revision leased", { revision_id: work.revision_id, number: work.revision_number });
    try {
      await applyWork(options, work);
    } catch (error) {
      // The lease then expires and a replica (this one included) takes the revision again.
      log.warn("revision not finished", { revision_id: work.revision_id, ...describeError(error) });
    }
  }
}
