-- Hangar's first schema: tenancy, credentials, deployments and their revisions, tags, audit.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TYPE "Role" AS ENUM ('admin', 'editor', 'viewer');
CREATE TYPE "DeploymentSource" AS ENUM ('codehost', 'external_container', 'internal_container', 'internal_source', 'internal_template');
CREATE TYPE "DeploymentType" AS ENUM ('dev_free', 'dev', 'prod');
CREATE TYPE "DeploymentStatus" AS ENUM ('AWAITING_DATABASE', 'READY', 'UNUSED', 'AWAITING_DELETE', 'UNKNOWN');
CREATE TYPE "RevisionStatus" AS ENUM ('CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED', 'DEPLOYED', 'SKIPPED', 'INTERRUPTED', 'UNKNOWN');

CREATE TABLE "organizations" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "workspaces" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "memberships" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "role" "Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "workspace_id" UUID,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "oauth_providers" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_encrypted" TEXT,
    "auth_url" TEXT NOT NULL,
    "token_url" TEXT NOT NULL,
    "uses_pkce" BOOLEAN NOT NULL DEFAULT false,
    "code_challenge_method" TEXT,
    "provider_type" TEXT,
    "mcp_server_url" TEXT,
    "token_endpoint_auth_method" TEXT NOT NULL DEFAULT 'client_secret_post',
    "is_dynamic_client" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "oauth_providers_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "codehost_integrations" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "api_base_url" TEXT NOT NULL,
    "installation_id" TEXT,
    "app_id" TEXT,
    "token_encrypted" TEXT,
    "private_key_encrypted" TEXT,
    "webhook_secret_encrypted" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "codehost_integrations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "deployments" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "source" "DeploymentSource" NOT NULL,
    "deployment_type" "DeploymentType" NOT NULL DEFAULT 'dev',
    "status" "DeploymentStatus" NOT NULL DEFAULT 'AWAITING_DATABASE',
    "source_config" JSONB NOT NULL,
    "source_revision_config" JSONB NOT NULL,
    "integration_id" UUID,
    "repo_url" TEXT,
    "listener_id" UUID,
    "image_version" TEXT,
    "latest_revision_id" UUID,
    "active_revision_id" UUID,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "revisions" (
    "id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "RevisionStatus" NOT NULL DEFAULT 'QUEUED',
    "status_message" TEXT,
    "source" "DeploymentSource" NOT NULL,
    "source_config" JSONB NOT NULL,
    "source_revision_config" JSONB NOT NULL,
    "secrets_encrypted" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "revisions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "secrets" (
    "id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "value_encrypted" TEXT NOT NULL,
    CONSTRAINT "secrets_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "secret_references" (
    "id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "secret_name" TEXT NOT NULL,
    "secret_key" TEXT NOT NULL,
    CONSTRAINT "secret_references_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "tag_keys" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tag_keys_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "tag_values" (
    "id" UUID NOT NULL,
    "tag_key_id" UUID NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tag_values_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "deployment_tags" (
    "deployment_id" UUID NOT NULL,
    "tag_value_id" UUID NOT NULL,
    "tag_key_id" UUID NOT NULL,
    CONSTRAINT "deployment_tags_pkey" PRIMARY KEY ("deployment_id","tag_value_id")
);

CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "workspace_id" UUID,
    "actor_user_id" UUID,
    "actor_api_key_id" UUID,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "workspaces_organization_id_idx" ON "workspaces"("organization_id");
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
CREATE INDEX "memberships_workspace_id_idx" ON "memberships"("workspace_id");
CREATE UNIQUE INDEX "memberships_user_id_workspace_id_key" ON "memberships"("user_id", "workspace_id");
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
CREATE INDEX "api_keys_workspace_id_created_at_idx" ON "api_keys"("workspace_id", "created_at");
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");
CREATE INDEX "oauth_providers_organization_id_created_at_idx" ON "oauth_providers"("organization_id", "created_at");
CREATE UNIQUE INDEX "oauth_providers_organization_id_provider_id_key" ON "oauth_providers"("organization_id", "provider_id");
CREATE INDEX "codehost_integrations_organization_id_created_at_idx" ON "codehost_integrations"("organization_id", "created_at");
CREATE INDEX "deployments_workspace_id_created_at_id_idx" ON "deployments"("workspace_id", "created_at" DESC, "id" DESC);
CREATE INDEX "deployments_workspace_id_status_created_at_id_idx" ON "deployments"("workspace_id", "status", "created_at" DESC, "id" DESC);
CREATE INDEX "deployments_workspace_id_deployment_type_created_at_id_idx" ON "deployments"("workspace_id", "deployment_type", "created_at" DESC, "id" DESC);
CREATE INDEX "deployments_workspace_id_image_version_idx" ON "deployments"("workspace_id", "image_version");
CREATE INDEX "deployments_workspace_id_listener_id_idx" ON "deployments"("workspace_id", "listener_id");
CREATE INDEX "deployments_integration_id_repo_url_idx" ON "deployments"("integration_id", "repo_url");
CREATE UNIQUE INDEX "deployments_workspace_id_name_key" ON "deployments"("workspace_id", "name");
-- name_contains is a case-insensitive substring match (ILIKE); trigrams keep it indexed.
CREATE INDEX "deployments_name_trgm_idx" ON "deployments" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "revisions_deployment_id_status_idx" ON "revisions"("deployment_id", "status");
CREATE UNIQUE INDEX "revisions_deployment_id_number_key" ON "revisions"("deployment_id", "number");
CREATE UNIQUE INDEX "secrets_deployment_id_name_key" ON "secrets"("deployment_id", "name");
CREATE UNIQUE INDEX "secret_references_deployment_id_name_key" ON "secret_references"("deployment_id", "name");
CREATE UNIQUE INDEX "tag_keys_workspace_id_key_key" ON "tag_keys"("workspace_id", "key");
CREATE UNIQUE INDEX "tag_values_tag_key_id_value_key" ON "tag_values"("tag_key_id", "value");
CREATE INDEX "deployment_tags_tag_value_id_deployment_id_idx" ON "deployment_tags"("tag_value_id", "deployment_id");
CREATE UNIQUE INDEX "deployment_tags_deployment_id_tag_key_id_key" ON "deployment_tags"("deployment_id", "tag_key_id");
CREATE INDEX "audit_events_workspace_id_created_at_idx" ON "audit_events"("workspace_id", "created_at" DESC);
CREATE INDEX "audit_events_organization_id_created_at_idx" ON "audit_events"("organization_id", "created_at" DESC);

ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "oauth_providers" ADD CONSTRAINT "oauth_providers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "codehost_integrations" ADD CONSTRAINT "codehost_integrations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "codehost_integrations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "secret_references" ADD CONSTRAINT "secret_references_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tag_keys" ADD CONSTRAINT "tag_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tag_values" ADD CONSTRAINT "tag_values_tag_key_id_fkey" FOREIGN KEY ("tag_key_id") REFERENCES "tag_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deployment_tags" ADD CONSTRAINT "deployment_tags_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deployment_tags" ADD CONSTRAINT "deployment_tags_tag_value_id_fkey" FOREIGN KEY ("tag_value_id") REFERENCES "tag_values"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
