import { env } from "@/env";

/**
 * The URL a deployment is served at: its own source_config.custom_url, else
 * HANGAR_DEPLOYMENT_URL_TEMPLATE with {name} (and {id}) filled in.
 */
export function deploymentUrlOf(
  deployment: { id: string; name: string; customUrl: string | null },
  template = env.HANGAR_DEPLOYMENT_URL_TEMPLATE,
): string | null {
  if (deployment.customUrl) return deployment.customUrl;
  const url = template.replaceAll("{name}", deployment.name).replaceAll("{id}", deployment.id);
  return URL.canParse(url) ? url : null;
}
