-- Runtime logs followed through a listener (issue 34, contract 14.3): when a replica last said it
-- follows (its log-request poll sends `follow: true`): while that is recent, Hangar streams the
-- listener's deployments instead of reading them again every 2 s; the lines it sends for a
-- follow wait here, seconds at most, until the viewer's instance takes them (and deletes them).
-- They go with their request, which goes when the viewer leaves.

ALTER TABLE "listeners" ADD COLUMN "follows_logs_at" TIMESTAMPTZ(3);

CREATE TABLE "listener_log_chunks" (
    "id" BIGSERIAL NOT NULL,
    "request_id" UUID NOT NULL,
    "lines" JSONB NOT NULL,
    "dropped" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "listener_log_chunks_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "listener_log_chunks_request_id_id_idx" ON "listener_log_chunks"("request_id", "id");

ALTER TABLE "listener_log_chunks" ADD CONSTRAINT "listener_log_chunks_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "listener_log_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
