import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { getQueryClient, trpc } from "@/trpc/server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The deployment (404 page when it is not in this workspace), cached for the request. */
export async function loadDeployment(id: string) {
  if (!UUID.test(id)) notFound();
  try {
    return await getQueryClient().fetchQuery(trpc.deployments.get.queryOptions({ id }));
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

/** What every deployment tab renders first: the deployment, its latest revision and the role. */
export async function prefetchDeploymentFrame(id: string) {
  const { deployment } = await loadDeployment(id);
  const queryClient = getQueryClient();
  await Promise.all([
    queryClient.prefetchQuery(trpc.session.me.queryOptions()),
    deployment.latest_revision_id &&
      queryClient.prefetchQuery(
        trpc.revisions.get.queryOptions({
          deploymentId: id,
          revisionId: deployment.latest_revision_id,
        }),
      ),
  ]);
  return deployment;
}

/** The workspace's tag keys and their values. */
export async function prefetchTags() {
  const queryClient = getQueryClient();
  const keys = await queryClient.fetchQuery(trpc.tags.listKeys.queryOptions());
  await Promise.all(
    keys.map((k) =>
      queryClient.prefetchQuery(trpc.tags.listValues.queryOptions({ tagKeyId: k.id })),
    ),
  );
}

export const isUuid = (value: string) => UUID.test(value);
