-- Tracing queries and storage (issue 33): the run query's `tags` and `metadata` filters
-- (contract 15.4), and inputs/outputs kept in the storage backend (15.5).
--
-- Both filters are containment (`tags @> $1::text[]`, `(extra -> 'metadata') @> $1::jsonb`), which
-- GIN indexes serve. Created on the partitioned parent: PostgreSQL builds them on every day
-- partition now and on each partition made later (services/tracing/partitions.ts). The
-- workspace is not in them: the planner ANDs them with the (workspace_id, ...) b-tree indexes.
-- jsonb_path_ops: smaller and faster than the default operator class, and containment is the
-- only operator the query uses on the metadata.

CREATE INDEX "tracing_runs_tags_idx" ON "tracing_runs" USING GIN ("tags");
CREATE INDEX "tracing_runs_metadata_idx" ON "tracing_runs" USING GIN (("extra" -> 'metadata') jsonb_path_ops);

-- Inputs or outputs past 64 KiB of JSON live in the storage backend (S3 or the data folder),
-- under the run's day like its attachments; the row keeps `{"object", "size"}` here and null in
-- "inputs"/"outputs" (services/tracing/stored-fields.ts). Nullable columns: no rewrite.
ALTER TABLE "tracing_runs" ADD COLUMN "inputs_ref" JSONB, ADD COLUMN "outputs_ref" JSONB;
