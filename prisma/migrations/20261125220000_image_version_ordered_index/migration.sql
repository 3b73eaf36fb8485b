-- The list filtered by image version (often with a status and a type) walks this index in the
-- list's order and stops at the page, reading status and type from the index itself: before,
-- it fetched every row of that version from the table and sorted them (2,000 heap reads for
-- one version of 100,000 deployments, per request).
DROP INDEX "deployments_workspace_id_image_version_idx";
CREATE INDEX "deployments_workspace_id_image_version_created_at_id_idx"
  ON "deployments" ("workspace_id", "image_version", "created_at" DESC, "id" DESC)
  INCLUDE ("status", "deployment_type");
