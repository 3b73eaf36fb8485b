-- Kubernetes builds fetch their context from a signed URL that works once (issue 24): a row per
-- context, claimed by a conditional UPDATE on the first GET, deleted with its object after the
-- build (or a day after it was made, when a worker died mid-build).
CREATE TABLE "build_contexts" (
    "id" UUID NOT NULL,
    "fetched_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "build_contexts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "build_contexts_created_at_idx" ON "build_contexts"("created_at");
