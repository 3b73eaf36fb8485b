-- Tracing queries (issue 33): the run query's `tags` and `metadata` filters (contract 15.4).
--
-- Both filters are containment (`tags @> $1::text[]`, `(extra -> 'metadata') @> $1::jsonb`), which
-- GIN indexes serve. Created on the partitioned parent: PostgreSQL builds them on every day
-- partition now and on each partition made later (services/tracing/partitions.ts). The
-- workspace is not in them: the planner ANDs them with the (workspace_id, ...) b-tree indexes.
-- jsonb_path_ops: smaller and faster than the default operator class, and containment is the
-- only operator the query uses on the metadata.

CREATE INDEX "tracing_runs_tags_idx" ON "tracing_runs" USING GIN ("tags");
CREATE INDEX "tracing_runs_metadata_idx" ON "tracing_runs" USING GIN (("extra" -> 'metadata') jsonb_path_ops);
