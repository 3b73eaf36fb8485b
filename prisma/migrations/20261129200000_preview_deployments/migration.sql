-- Preview deployments (issue 26): a preview is a deployment with a parent and its pull request.
ALTER TABLE "deployments" ADD COLUMN "parent_id" UUID;
ALTER TABLE "deployments" ADD COLUMN "preview" JSONB;
ALTER TABLE "deployments" ADD COLUMN "pr_number" INTEGER;
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_parent_id_fkey"
  FOREIGN KEY ("parent_id") REFERENCES "deployments"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "deployments_parent_id_pr_number_idx" ON "deployments"("parent_id", "pr_number");

-- The contract's Deployment gains `preview` and source_config `previews` (its default, null):
-- the stored list JSON (migration 20261126000000) follows, and every row is rebuilt.
CREATE OR REPLACE FUNCTION hangar_deployment_json(d deployments) RETURNS text STABLE LANGUAGE sql AS $$
  SELECT json_build_object(
    'id', d.id,
    'tenant_id', d.workspace_id,
    'name', d.name,
    'source', d.source,
    'source_config', '{"integration_id": null, "repo_url": null, "build_on_push": null,
                       "custom_url": null, "resource_spec": null, "listener_id": null,
                       "listener_config": null, "install_command": null, "build_command": null,
                       "deployment_type": "dev", "template_id": null, "previews": null}'::jsonb
                     || d.source_config,
    'source_revision_config', '{"repo_ref": null, "graph_config_path": null, "image_uri": null,
                                "source_tarball_path": null, "repo_commit_sha": null}'::jsonb
                              || d.source_revision_config,
    'secrets', COALESCE((SELECT json_agg(json_build_object('name', s.name, 'value', '********'::text)
                                         ORDER BY s.name)
                         FROM secrets s WHERE s.deployment_id = d.id), '[]'),
    'secret_references', CASE WHEN d.source = 'external_container' THEN
        COALESCE((SELECT json_agg(json_build_object('name', r.name, 'secret_name', r.secret_name,
                                                    'secret_key', r.secret_key) ORDER BY r.name)
                  FROM secret_references r WHERE r.deployment_id = d.id), '[]') END,
    'image_version', d.image_version,
    'tag_value_ids', COALESCE((SELECT json_agg(t.tag_value_id ORDER BY t.tag_value_id)
                               FROM deployment_tags t WHERE t.deployment_id = d.id), '[]'),
    'tracked_packages', to_json(d.tracked_packages),
    'status', d.status,
    'latest_revision_id', d.latest_revision_id,
    'active_revision_id', d.active_revision_id,
    'runtime', d.runtime,
    'preview', CASE WHEN d.preview IS NULL THEN NULL
                    ELSE jsonb_build_object('parent_id', d.parent_id) || d.preview END,
    'created_at', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text
$$;

UPDATE deployments SET list_json = NULL;
