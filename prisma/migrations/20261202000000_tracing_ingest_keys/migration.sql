-- Tracing ingest keys (issue 33): the credential Hangar injects into a deployment's pods
-- (LANGSMITH_API_KEY, the OTel exporter's x-api-key). One per revision, derived from the
-- encryption key and the revision id (a retried deploy renders the same Secret), so only its
-- SHA-256 is stored, as for API keys. Not in "api_keys": no other door knows it. It may only
-- write runs into its project; it is revoked when a later revision of its deployment goes live,
-- and when the deployment is deleted (the rows go with the deployment and its revisions).
CREATE TABLE "tracing_ingest_keys" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "revision_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "tracing_ingest_keys_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tracing_ingest_keys_key_hash_key" ON "tracing_ingest_keys"("key_hash");
CREATE UNIQUE INDEX "tracing_ingest_keys_revision_id_key" ON "tracing_ingest_keys"("revision_id");
CREATE INDEX "tracing_ingest_keys_deployment_id_idx" ON "tracing_ingest_keys"("deployment_id");

ALTER TABLE "tracing_ingest_keys" ADD CONSTRAINT "tracing_ingest_keys_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tracing_ingest_keys" ADD CONSTRAINT "tracing_ingest_keys_deployment_id_fkey"
    FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tracing_ingest_keys" ADD CONSTRAINT "tracing_ingest_keys_revision_id_fkey"
    FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tracing_ingest_keys" ADD CONSTRAINT "tracing_ingest_keys_project_id_fkey"
    FOREIGN KEY ("project_id") REFERENCES "tracing_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
