import type { KubeConfig } from "@kubernetes/client-node";
import { env } from "@/env";

// The cluster Hangar deploys to (HANGAR_KUBECONFIG), for the app's reads of what runs there;
// null in dry run. Loaded once, on first use.

let loaded: { path: string; config: Promise<KubeConfig> } | null = null;

export function clusterKubeconfig(path = env.HANGAR_KUBECONFIG): Promise<KubeConfig> | null {
  if (!path) return null;
  if (loaded?.path !== path)
    loaded = {
      path,
      config: import("@kubernetes/client-node").then(({ KubeConfig }) => {
        const config = new KubeConfig();
        config.loadFromFile(path);
        return config;
      }),
    };
  return loaded.config;
}
