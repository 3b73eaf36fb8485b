-- Deleting a deployment assigned to a listener (issue 16): the listener removes its objects from
-- its cluster under a lease (one replica deletes them), then reports; only then the row goes.
ALTER TABLE "deployments" ADD COLUMN "delete_lease_owner" TEXT,
    ADD COLUMN "delete_lease_expires_at" TIMESTAMPTZ(3);

-- Deletion reports a listener already delivered. No foreign key to the deployment: the rows
-- outlive it, so a repeated final report still answers DELETED instead of 404.
CREATE TABLE "listener_deletion_reports" (
    "deployment_id" UUID NOT NULL,
    "report_id" TEXT NOT NULL,
    "listener_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "listener_deletion_reports_pkey" PRIMARY KEY ("deployment_id", "report_id")
);
CREATE INDEX "listener_deletion_reports_listener_id_idx" ON "listener_deletion_reports"("listener_id");
ALTER TABLE "listener_deletion_reports" ADD CONSTRAINT "listener_deletion_reports_listener_id_fkey"
    FOREIGN KEY ("listener_id") REFERENCES "listeners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
