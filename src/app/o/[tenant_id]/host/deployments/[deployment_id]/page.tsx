import { redirect } from "next/navigation";

// The deploy client prints `<host>/o/<tenant_id>/host/deployments/<id>`: the deployment's page.
export default async function DeploymentLink({
  params,
}: {
  params: Promise<{ tenant_id: string; deployment_id: string }>;
}) {
  const { deployment_id } = await params;
  redirect(`/deployments/${encodeURIComponent(deployment_id)}`);
}
