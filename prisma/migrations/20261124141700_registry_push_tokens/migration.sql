-- Image deploys through Hangar's registry (issue 14): push tokens, and the digest a revision
-- deploys.
ALTER TABLE "revisions" ADD COLUMN "image_digest" TEXT;

CREATE TABLE "push_tokens" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "push_tokens_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "push_tokens_token_hash_key" ON "push_tokens"("token_hash");
CREATE INDEX "push_tokens_deployment_id_idx" ON "push_tokens"("deployment_id");

ALTER TABLE "push_tokens" ADD CONSTRAINT "push_tokens_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
