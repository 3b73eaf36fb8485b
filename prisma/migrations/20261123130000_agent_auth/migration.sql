-- Agent authorization (issue 13): users' tokens at OAuth providers, the flows that obtain them,
-- and agents' connections to tokens.
ALTER TABLE "oauth_providers" ADD COLUMN "issuer" TEXT;

CREATE TABLE "oauth_tokens" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "provider_row_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "access_token_encrypted" TEXT NOT NULL,
    "refresh_token_encrypted" TEXT,
    "token_type" TEXT NOT NULL DEFAULT 'bearer',
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "provider_account_label" TEXT,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "oauth_flows" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "provider_row_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "agent_id" UUID,
    "scopes" TEXT[],
    "state_hash" TEXT NOT NULL,
    "code_verifier_encrypted" TEXT,
    "redirect_uri" TEXT NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "replaces_token_id" UUID,
    "created_by_user_id" UUID,
    "created_by_api_key_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "token_id" UUID,
    "state_used_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "oauth_flows_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "agent_connections" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "token_id" UUID NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "agent_connections_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "oauth_tokens_workspace_id_provider_row_id_user_id_created_at_idx" ON "oauth_tokens"("workspace_id", "provider_row_id", "user_id", "created_at");
CREATE UNIQUE INDEX "oauth_flows_state_hash_key" ON "oauth_flows"("state_hash");
CREATE INDEX "oauth_flows_workspace_id_created_at_idx" ON "oauth_flows"("workspace_id", "created_at");
CREATE UNIQUE INDEX "agent_connections_deployment_id_token_id_key" ON "agent_connections"("deployment_id", "token_id");
CREATE INDEX "agent_connections_workspace_id_idx" ON "agent_connections"("workspace_id");

ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_provider_row_id_fkey" FOREIGN KEY ("provider_row_id") REFERENCES "oauth_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_flows" ADD CONSTRAINT "oauth_flows_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_flows" ADD CONSTRAINT "oauth_flows_provider_row_id_fkey" FOREIGN KEY ("provider_row_id") REFERENCES "oauth_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_connections" ADD CONSTRAINT "agent_connections_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_connections" ADD CONSTRAINT "agent_connections_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "oauth_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
