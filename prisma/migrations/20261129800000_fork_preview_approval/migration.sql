-- Fork previews (issue 32): a preview's secrets apply only to the head commit an editor approved.
-- A revision records that it was cut without them (its build log and commit status say so).
ALTER TABLE "revisions" ADD COLUMN "secrets_withheld" BOOLEAN NOT NULL DEFAULT false;

-- The contract's PreviewInfo gains head_repo_url (where the pull request's head lives) and
-- approved_sha. Previews made before this knew no head repository: a same-repository one's is
-- its own, a fork's is unknown (null, as for a deleted fork). No fork preview was approved yet.
-- The row trigger rebuilds each row's list JSON from the new value.
UPDATE "deployments"
SET "preview" = jsonb_build_object(
      'head_repo_url', CASE WHEN ("preview"->>'fork')::boolean THEN NULL ELSE "repo_url" END,
      'approved_sha', NULL
    ) || "preview"
WHERE "preview" IS NOT NULL;
