import type { RenderContext } from "./context";
import { scaleOf } from "./resources";
import { serviceOf } from "./service";
import type { KubernetesObject } from "./types";
import { appWorkload, SERVER_PORT } from "./workload";

/** The API server: `<name>` Deployment (min_scale replicas, HPA up to max_scale) and Service. */
export function serverObjects(ctx: RenderContext): KubernetesObject[] {
  const name = ctx.names.server;
  return [
    ...appWorkload(ctx, {
      component: "server",
      name,
      prefix: "",
      scale: scaleOf(ctx.spec, ""),
      port: SERVER_PORT,
    }),
    serviceOf(ctx, "server", name, { name: "http", port: SERVER_PORT }),
  ];
}
