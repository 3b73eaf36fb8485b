-- The revision engine: what a revision was built and deployed as, its logs, and code-host
-- webhook deliveries (so a redelivered push creates nothing twice).

CREATE TYPE "RevisionLogStream" AS ENUM ('build', 'deploy');

ALTER TABLE "revisions"
    ADD COLUMN "image_ref" TEXT,
    ADD COLUMN "build_plan" JSONB,
    ADD COLUMN "manifests" JSONB;

CREATE TABLE "revision_logs" (
    "id" BIGSERIAL NOT NULL,
    "revision_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "stream" "RevisionLogStream" NOT NULL,
    "line" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revision_logs_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "revision_logs_revision_id_seq_key" ON "revision_logs"("revision_id", "seq");
CREATE INDEX "revision_logs_revision_id_id_idx" ON "revision_logs"("revision_id", "id");
ALTER TABLE "revision_logs" ADD CONSTRAINT "revision_logs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "revision_ids" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "webhook_deliveries_integration_id_delivery_id_key" ON "webhook_deliveries"("integration_id", "delivery_id");
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "codehost_integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
