-- Where a deployment's active revision runs: on a Kubernetes cluster, or nowhere (a dry run:
-- no cluster configured, the manifests were only recorded). NULL until a revision is deployed.

CREATE TYPE "Runtime" AS ENUM ('kubernetes', 'dry_run');

ALTER TABLE "deployments" ADD COLUMN "runtime" "Runtime";
ALTER TABLE "revisions" ADD COLUMN "runtime" "Runtime";
