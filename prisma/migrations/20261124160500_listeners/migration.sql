-- Listeners (issue 16): agents inside a customer's cluster that apply the revisions of the
-- deployments assigned to them. The credential is stored only as a SHA-256.
CREATE TABLE "listeners" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "compute_type" TEXT NOT NULL DEFAULT 'k8s',
    "compute_id" TEXT NOT NULL,
    "compute_config" JSONB NOT NULL,
    "version" TEXT,
    "token_prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "listeners_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "listeners_token_hash_key" ON "listeners"("token_hash");
CREATE UNIQUE INDEX "listeners_workspace_id_compute_id_key" ON "listeners"("workspace_id", "compute_id");
CREATE INDEX "listeners_workspace_id_created_at_idx" ON "listeners"("workspace_id", "created_at" DESC, "id" DESC);
ALTER TABLE "listeners" ADD CONSTRAINT "listeners_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The listener protocol: a lease per revision (one replica applies it) and whether a listener
-- finished it.
ALTER TABLE "revisions" ADD COLUMN "lease_owner" TEXT,
    ADD COLUMN "lease_expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "remote_reconciled" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "listener_objects_encrypted" TEXT;

-- Reports a listener already delivered (at-least-once delivery: a repeat changes nothing).
CREATE TABLE "listener_reports" (
    "revision_id" UUID NOT NULL,
    "report_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "listener_reports_pkey" PRIMARY KEY ("revision_id", "report_id")
);
ALTER TABLE "listener_reports" ADD CONSTRAINT "listener_reports_revision_id_fkey"
    FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
