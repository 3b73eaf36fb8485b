-- Access follows identity (issue 28). A personal key answers to its maker: it acts with at most
-- the maker's current workspace and organization roles, and stops when they leave the key's
-- workspace. A service key belongs to its workspace (or organization) and has no maker.

CREATE TYPE "ApiKeyKind" AS ENUM ('personal', 'service');

ALTER TABLE "api_keys" ADD COLUMN "kind" "ApiKeyKind";
-- Keys someone made are theirs; keys of the admin command and the bootstrap have no maker. (The
-- bootstrap key, made in the bootstrap admin's name until now, becomes a service key again at
-- the next start that configures it: src/server/services/bootstrap.ts.)
UPDATE "api_keys"
SET "kind" = CASE WHEN "created_by_id" IS NOT NULL AND "workspace_id" IS NOT NULL
                  THEN 'personal' ELSE 'service' END::"ApiKeyKind";
ALTER TABLE "api_keys" ALTER COLUMN "kind" SET NOT NULL;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_service_has_no_maker"
  CHECK ("kind" = 'personal' OR "created_by_id" IS NULL);
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_personal_in_a_workspace"
  CHECK ("kind" = 'service' OR "workspace_id" IS NOT NULL);

-- An organization role belongs to someone with a workspace in the organization; a row left by
-- earlier removals would come back with the next membership.
DELETE FROM "organization_members" o
WHERE NOT EXISTS (
  SELECT 1 FROM "memberships" m JOIN "workspaces" w ON w."id" = m."workspace_id"
  WHERE m."user_id" = o."user_id" AND w."organization_id" = o."organization_id"
);

-- What the stored keys say is what they may do: keys of makers who have since left the key's
-- workspace are revoked, the others narrowed to their maker's current roles.
UPDATE "api_keys" k SET "revoked_at" = CURRENT_TIMESTAMP
WHERE k."kind" = 'personal' AND k."revoked_at" IS NULL
  AND NOT EXISTS (
    SELECT 1 FROM "memberships" m
    WHERE m."user_id" = k."created_by_id" AND m."workspace_id" = k."workspace_id"
  );
UPDATE "api_keys" k SET "role" = m."role"
FROM "memberships" m
WHERE k."kind" = 'personal' AND k."revoked_at" IS NULL
  AND m."user_id" = k."created_by_id" AND m."workspace_id" = k."workspace_id"
  AND array_position(ARRAY['viewer', 'editor', 'admin']::"Role"[], k."role")
    > array_position(ARRAY['viewer', 'editor', 'admin']::"Role"[], m."role");
UPDATE "api_keys" k SET "org_role" = 'member'
WHERE k."kind" = 'personal' AND k."revoked_at" IS NULL AND k."org_role" <> 'member'
  AND NOT EXISTS (
    SELECT 1 FROM "organization_members" o
    WHERE o."user_id" = k."created_by_id" AND o."organization_id" = k."organization_id"
      AND o."role" IN ('admin', 'owner')
  );

-- Cached keys carry their maker's roles (src/server/auth/api-key-cache.ts): any change to who is
-- a member with which role tells every server to drop its cached keys (an empty payload).
CREATE FUNCTION hangar_notify_api_key_makers_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hangar_api_key_changed', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER memberships_notify_api_keys
  AFTER INSERT OR UPDATE OR DELETE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION hangar_notify_api_key_makers_change();

CREATE TRIGGER organization_members_notify_api_keys
  AFTER INSERT OR UPDATE OR DELETE ON "organization_members"
  FOR EACH STATEMENT EXECUTE FUNCTION hangar_notify_api_key_makers_change();
