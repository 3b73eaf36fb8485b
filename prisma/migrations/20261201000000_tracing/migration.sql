-- Tracing (issue 33): projects ("sessions" to the tracing SDK), their runs and feedback.
--
-- Runs are PARTITIONED BY RANGE on "sort_time" (the run's time as its dotted_order states it,
-- else its start_time), one partition per UTC day, created ahead by the services
-- (src/server/services/tracing/partitions.ts) and dropped whole by retention: never row deletes.
-- A partitioned table's unique keys must hold the partition key, so a run is identified by
-- (id, sort_time): the SDK sends the same dotted_order with a run's post and its patch, so both
-- land on one row. A write whose (id, sort_time) is another workspace's row changes nothing
-- (the upsert's WHERE), so a run id of another workspace is never overwritten.

CREATE TABLE "tracing_projects" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "extra" JSONB,
    -- The deployment this project was created with; null once that deployment is deleted (the
    -- project and its runs stay, detached, until retention drops the runs).
    "deployment_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "tracing_projects_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "tracing_projects_workspace_id_name_key" ON "tracing_projects"("workspace_id", "name");
CREATE UNIQUE INDEX "tracing_projects_deployment_id_key" ON "tracing_projects"("deployment_id");
ALTER TABLE "tracing_projects" ADD CONSTRAINT "tracing_projects_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tracing_projects" ADD CONSTRAINT "tracing_projects_deployment_id_fkey"
    FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "tracing_runs" (
    "id" UUID NOT NULL,
    "sort_time" TIMESTAMPTZ(6) NOT NULL,
    "workspace_id" UUID NOT NULL,
    "project_id" UUID,
    "trace_id" UUID,
    "parent_run_id" UUID,
    "dotted_order" TEXT,
    "name" TEXT,
    "run_type" TEXT,
    "start_time" TIMESTAMPTZ(6),
    "end_time" TIMESTAMPTZ(6),
    "error" TEXT,
    "inputs" JSONB,
    "outputs" JSONB,
    "events" JSONB,
    "extra" JSONB,
    "serialized" JSONB,
    "tags" TEXT[],
    "reference_example_id" UUID,
    "attachments" JSONB,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "total_tokens" INTEGER,
    -- A patch can arrive before its post: the row exists then with the patch's fields only.
    "posted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "tracing_runs_pkey" PRIMARY KEY ("id", "sort_time")
) PARTITION BY RANGE ("sort_time");
CREATE INDEX "tracing_runs_project_time_idx" ON "tracing_runs"("workspace_id", "project_id", "sort_time" DESC, "id" DESC);
CREATE INDEX "tracing_runs_trace_idx" ON "tracing_runs"("workspace_id", "trace_id", "dotted_order");
CREATE INDEX "tracing_runs_parent_idx" ON "tracing_runs"("workspace_id", "parent_run_id");

CREATE TABLE "tracing_feedback" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "run_id" UUID,
    "trace_id" UUID,
    "project_id" UUID,
    "key" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "value" JSONB,
    "comment" TEXT,
    "correction" JSONB,
    "feedback_source" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "tracing_feedback_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "tracing_feedback_run_idx" ON "tracing_feedback"("workspace_id", "run_id");
CREATE INDEX "tracing_feedback_created_idx" ON "tracing_feedback"("workspace_id", "created_at" DESC, "id" DESC);
ALTER TABLE "tracing_feedback" ADD CONSTRAINT "tracing_feedback_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tracing_feedback" ADD CONSTRAINT "tracing_feedback_project_id_fkey"
    FOREIGN KEY ("project_id") REFERENCES "tracing_projects"("id") ON DELETE SET NULL ON UPDATE CASCADE;
