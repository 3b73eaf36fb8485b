-- Organization roles (issue 11): OAuth providers and code-host integrations belong to the
-- organization, so changing them needs an organization role, not a workspace one.

CREATE TYPE "OrgRole" AS ENUM ('owner', 'admin', 'member');

CREATE TABLE "organization_members" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "OrgRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_members_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "organization_members_organization_id_user_id_key" ON "organization_members"("organization_id", "user_id");
CREATE INDEX "organization_members_user_id_idx" ON "organization_members"("user_id");
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "api_keys" ADD COLUMN "org_role" "OrgRole" NOT NULL DEFAULT 'member';

-- Existing installations: the earliest workspace admin of each organization becomes its owner
-- (everyone else is a member until an owner or admin says otherwise).
INSERT INTO "organization_members" ("id", "organization_id", "user_id", "role", "created_at")
SELECT DISTINCT ON (w."organization_id") gen_random_uuid(), w."organization_id", m."user_id", 'owner', m."created_at"
FROM "memberships" m JOIN "workspaces" w ON w."id" = m."workspace_id"
WHERE m."role" = 'admin'
ORDER BY w."organization_id", m."created_at", m."id";
