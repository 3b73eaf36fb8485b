-- Upload URLs are single-use, and an upload is built by one revision (issue 23, finding 4): a row
-- per URL handed out, claimed by a conditional UPDATE when a PUT starts and when a build starts.
-- A missing row allows nothing, so rows go with their deployment or a day after they were issued.
CREATE TYPE "UploadState" AS ENUM ('ISSUED', 'UPLOADING', 'STORED', 'BUILT');

CREATE TABLE "uploads" (
    "id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "state" "UploadState" NOT NULL DEFAULT 'ISSUED',
    "revision_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "uploads_deployment_id_idx" ON "uploads"("deployment_id");
CREATE INDEX "uploads_revision_id_idx" ON "uploads"("revision_id");
CREATE INDEX "uploads_created_at_idx" ON "uploads"("created_at");

ALTER TABLE "uploads" ADD CONSTRAINT "uploads_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE SET NULL ON UPDATE CASCADE;
