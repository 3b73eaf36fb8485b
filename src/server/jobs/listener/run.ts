import { randomUUID } from "node:crypto";
import type { ListenerApplyWork, ListenerDeleteWork, ListenerWork } from "@/schemas/listeners";
import { describeError, log } from "@/server/log";
import { StepFailure, type DeployerDriver } from "../drivers/types";
import type { KubernetesObject } from "../manifests";
import type { ProtocolClient } from "./client";

// One listener replica: long-poll for work, apply a revision (and wait for the rollout) or delete
// a deployment's objects with the Kubernetes driver, report. The lease is renewed while it works;
// if Hangar says the work moved on or another replica holds it, this replica stops reporting.

export interface ListenerOptions {
  client: ProtocolClient;
  deployer: DeployerDriver;
  replicaId: string;
  waitSeconds: number;
  signal: AbortSignal;
  /** A revision of the deployment went live: its health is judged again now (listener/health.ts). */
  onDeployed?: (deploymentId: string) => void;
}

interface Report<S> {
  status?: S;
  message?: string;
  lines?: string[];
}

type Send<S> = (body: Report<S>) => Promise<{ status: string }>;

/** Runs `step` while renewing the lease (an empty report every third of it). */
async function underLease<S>(
  work: ListenerWork,
  send: Send<S>,
  step: (report: Send<S>) => Promise<Report<S> & { status: S }>,
): Promise<string> {
  const leaseMs = Math.max(1_000, Date.parse(work.lease_expires_at) - Date.now());
  const renew = setInterval(() => {
    send({}).catch((error) =>
      log.warn("lease renewal failed", {
        deployment_id: work.deployment_id,
        ...describeError(error),
      }),
    );
  }, leaseMs / 3);
  try {
    const outcome = await step(send);
    clearInterval(renew);
    return (await send(outcome)).status;
  } finally {
    clearInterval(renew);
  }
}

const failureOf = (error: unknown, what: string) =>
  error instanceof StepFailure
    ? { message: error.message, lines: error.lines }
    : { message: `The listener could not ${what}: ${(error as Error).message}`, lines: [] };

function applyWork(options: ListenerOptions, work: ListenerApplyWork): Promise<string> {
  const { client, deployer, replicaId, signal } = options;
  const send: Send<"DEPLOYED" | "DEPLOY_FAILED"> = (body) =>
    client.report(
      work.revision_id,
      { replica_id: replicaId, report_id: randomUUID(), lines: [], ...body },
      signal,
    );
  return underLease(work, send, async (report) => {
    await report({
      lines: [
        `Applying ${work.objects.length} objects in namespace ${work.namespace} (replica ${replicaId})`,
      ],
    });
    try {
      const applied = await deployer.apply(work.objects as unknown as KubernetesObject[]);
      return {
        status: "DEPLOYED" as const,
        lines: [...applied.lines, `Revision ${work.revision_number} deployed`],
      };
    } catch (error) {
      return { status: "DEPLOY_FAILED" as const, ...failureOf(error, "apply the revision") };
    }
  });
}

function deleteWork(options: ListenerOptions, work: ListenerDeleteWork): Promise<string> {
  const { client, deployer, replicaId, signal } = options;
  const send: Send<"DELETED" | "DELETE_FAILED"> = (body) =>
    client.reportDeletion(
      work.deployment_id,
      { replica_id: replicaId, report_id: randomUUID(), lines: [], ...body },
      signal,
    );
  return underLease(work, send, async () => {
    try {
      const removed = await deployer.teardown(work.objects as unknown as KubernetesObject[]);
      return {
        status: "DELETED" as const,
        lines: [
          ...removed.lines,
          `Deployment ${work.deployment_name} removed (replica ${replicaId})`,
        ],
      };
    } catch (error) {
      return { status: "DELETE_FAILED" as const, ...failureOf(error, "delete the deployment") };
    }
  });
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
    const ids = { action: work.action, deployment_id: work.deployment_id };
    log.info(
      "work leased",
      work.action === "apply" ? { ...ids, revision_id: work.revision_id } : ids,
    );
    try {
      const status =
        work.action === "apply" ? await applyWork(options, work) : await deleteWork(options, work);
      log.info("work reported", { ...ids, status });
      if (status === "DEPLOYED") options.onDeployed?.(work.deployment_id);
    } catch (error) {
      // The lease then expires and a replica (this one included) takes the work again.
      log.warn("work not finished", { ...ids, ...describeError(error) });
    }
  }
}
