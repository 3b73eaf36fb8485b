-- Runtime logs of listener deployments (contract 14.3): Hangar asks, the listener reads its own
-- cluster and answers. A row lives for one request (seconds): the query, which replica took it,
-- and the answer until the asking request reads it (then the row is deleted; expired rows are
-- purged at the next request). Nothing is stored that was not asked for.
CREATE TABLE "listener_log_requests" (
    "id" UUID NOT NULL,
    "listener_id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "query" JSONB NOT NULL,
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "answered_at" TIMESTAMPTZ(3),
    "answer" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "listener_log_requests_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "listener_log_requests_listener_id_expires_at_idx" ON "listener_log_requests"("listener_id", "expires_at");
CREATE INDEX "listener_log_requests_expires_at_idx" ON "listener_log_requests"("expires_at");

ALTER TABLE "listener_log_requests" ADD CONSTRAINT "listener_log_requests_listener_id_fkey" FOREIGN KEY ("listener_id") REFERENCES "listeners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "listener_log_requests" ADD CONSTRAINT "listener_log_requests_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
