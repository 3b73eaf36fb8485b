-- Commit statuses of previews (issue 34): queued in the transaction of the move they report (or
-- of a refused preview), each carrying the state it reports, and sent in order by one poster at
-- a time. "seq" counts per commit and context, allocated under a transaction-scoped advisory
-- lock of that commit, so its order is the order the reporting transactions committed in.

CREATE TABLE "preview_commit_statuses" (
    "id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "repo" TEXT NOT NULL,
    "sha" TEXT NOT NULL,
    "context" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "target_url" TEXT,
    -- The revision it reports (null for a refused preview); no key: the record outlives it.
    "revision_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "posted_at" TIMESTAMPTZ(3),
    CONSTRAINT "preview_commit_statuses_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "preview_commit_statuses_commit_seq_key"
    ON "preview_commit_statuses"("integration_id", "owner", "repo", "sha", "context", "seq");
ALTER TABLE "preview_commit_statuses" ADD CONSTRAINT "preview_commit_statuses_integration_id_fkey"
    FOREIGN KEY ("integration_id") REFERENCES "codehost_integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
