import type { SourceConfig } from "@/schemas/deployments";
import type { ComputeConfig } from "@/schemas/listeners";
import { encrypt } from "@/server/crypto";
import { asJson } from "@/server/services/deployments/serialize";
import { notifyListenerWork } from "@/server/services/listeners/work-events";
import { StepFailure } from "../drivers";
import { redactManifests } from "../manifests";
import { advance, withSecretReferences, type EngineContext, type EngineRevision } from "./context";
import { manifestsOf, tracingOf } from "./deploy-step";

/**
 * AWAITING_DEPLOY -> DEPLOYING for a deployment with a listener: Hangar does not apply it. The
 * objects are rendered here (in the listener's namespace), kept encrypted for the listener to
 * fetch, and the listener is woken (NOTIFY, delivered at commit). The listener then leases the
 * revision, applies it and reports DEPLOYED or DEPLOY_FAILED (services/listeners/protocol).
 */
export async function handToListener(
  ctx: EngineContext,
  revision: EngineRevision,
  listenerId: string,
): Promise<void> {
  const listener = await ctx.db.listener.findUnique({ where: { id: listenerId } });
  const sourceConfig = revision.sourceConfig as SourceConfig;
  const namespaces = (listener?.computeConfig as ComputeConfig | undefined)?.k8s_namespaces ?? [];
  const namespace = sourceConfig.listener_config?.k8s_namespace ?? namespaces[0];
  try {
    if (!listener) throw new StepFailure(`Listener ${listenerId} no longer exists.`);
    if (!namespace || !namespaces.includes(namespace))
      throw new StepFailure(
        `Listener ${listener.computeId} does not serve namespace ${namespace ?? "(none)"}; it serves ${namespaces.join(", ")}.`,
      );
    // The ingest key travels as the revision's secrets do: in the objects, encrypted at rest.
    const objects = manifestsOf(
      {
        ...(await withSecretReferences(ctx.db, revision)),
        sourceConfig: {
          ...sourceConfig,
          listener_config: { k8s_namespace: namespace },
        } as EngineRevision["sourceConfig"],
      },
      await tracingOf(ctx.db, revision),
    );
    await advance(ctx, revision.id, {
      from: ["AWAITING_DEPLOY"],
      to: "DEPLOYING",
      data: {
        manifests: asJson(redactManifests(objects)),
        listenerObjectsEncrypted: encrypt(JSON.stringify(objects)),
        leaseOwner: null,
        leaseExpiresAt: null,
      },
      stream: "deploy",
      lines: [
        `Handed to listener ${listener.computeId} (namespace ${namespace}); waiting for it to apply ${revision.imageRef}`,
      ],
      also: (tx) => notifyListenerWork(tx, listener.id),
    });
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    await advance(ctx, revision.id, {
      from: ["AWAITING_DEPLOY"],
      to: "DEPLOY_FAILED",
      message: error.message,
      stream: "deploy",
      lines: [error.message],
    });
  }
}
