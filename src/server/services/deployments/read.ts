import type { Deployment } from "@/schemas/deployments";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { findDeployment } from "./find";
import { etagOf, toDeployment, type DeploymentRow } from "./serialize";

export interface VersionedDeployment {
  deployment: Deployment;
  /** Changes with every mutation; send it back as If-Match to patch safely. */
  etag: string;
}

export const versioned = (row: DeploymentRow): VersionedDeployment => ({
  deployment: toDeployment(row),
  etag: etagOf(row),
});

export async function getDeployment(
  db: DbClient,
  actor: Actor,
  id: string,
): Promise<VersionedDeployment> {
  return versioned(await findDeployment(db, actor, id));
}
