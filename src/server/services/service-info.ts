import packageJson from "../../../package.json" with { type: "json" };
import { env } from "@/env";
import type { Runtime } from "@/schemas/deployments";
import type { Builder } from "@/schemas/service";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { countLiveWorkers } from "./workers";

/** Where this installation's revisions run: a dry run unless a cluster is configured. */
export const serverRuntime = (): Runtime => (env.HANGAR_KUBECONFIG ? "kubernetes" : "dry_run");

/** What turns sources into images: a builder, or a dry run (images named, not built). */
export const serverBuilder = (): Builder => env.HANGAR_BUILDER ?? "dry_run";

export function getInfo() {
  return {
    version: packageJson.version,
    mode: env.HANGAR_MODE,
    region: env.HANGAR_REGION,
    runtime: serverRuntime(),
    builder: serverBuilder(),
  };
}

/** GET /info: the above and the workers alive now (null while the database cannot be asked). */
export async function getServiceInfo(db: Db) {
  return { ...getInfo(), workers: await countLiveWorkers(db).catch(() => null) };
}

/** Ready when the database answers. */
export async function checkReady(db: Db): Promise<{ status: "ok" }> {
  try {
    await db.$queryRaw`SELECT 1`;
  } catch {
    throw new AppError("unavailable", "Database unreachable");
  }
  return { status: "ok" };
}
