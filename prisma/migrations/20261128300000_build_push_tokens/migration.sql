-- Real builds (issue 24): a build pushes its image with a push token of its own, tied to its
-- revision (gone with it), living as long as the build may and revoked when the build ends.
ALTER TABLE "push_tokens" ADD COLUMN "revision_id" UUID;

CREATE INDEX "push_tokens_revision_id_idx" ON "push_tokens"("revision_id");

ALTER TABLE "push_tokens" ADD CONSTRAINT "push_tokens_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
