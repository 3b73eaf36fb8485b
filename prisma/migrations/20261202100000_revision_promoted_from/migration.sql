-- Where a promoted revision's image came from (issue 34): {deployment_id, deployment_name,
-- revision_id, revision_number} as they were at the promotion, so it still reads true once the
-- source deployment is renamed or deleted. Null for every other revision.

ALTER TABLE "revisions" ADD COLUMN "promoted_from" JSONB;
