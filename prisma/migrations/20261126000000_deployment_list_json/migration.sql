-- Each deployment keeps its contract JSON (what toDeployment answers) beside the row, so a page of
-- the list is the stored texts joined in order: building 100 rows' JSON on every request was
-- ~3 ms of PostgreSQL CPU (the configs merged over their defaults, three aggregates per row, the
-- timestamps formatted). Kept exact by triggers, whoever writes: the row's own BEFORE trigger
-- builds it from the new row; a change to its secrets, secret references or tags rebuilds it.
-- Read only by src/server/services/deployments/list.ts; Prisma's schema leaves the column out.
-- Changing the contract's Deployment means a migration replacing hangar_deployment_json and
-- rebuilding every row (tests/integration/deployments-list-json.test.ts holds the two together).

-- The defaults below are emptySourceConfig / emptySourceRevisionConfig (serialize.ts); the
-- secret value is SECRET_PLACEHOLDER.
CREATE FUNCTION hangar_deployment_json(d deployments) RETURNS text STABLE LANGUAGE sql AS $$
  SELECT json_build_object(
    'id', d.id,
    'tenant_id', d.workspace_id,
    'name', d.name,
    'source', d.source,
    'source_config', '{"integration_id": null, "repo_url": null, "build_on_push": null,
                       "custom_url": null, "resource_spec": null, "listener_id": null,
                       "listener_config": null, "install_command": null, "build_command": null,
                       "deployment_type": "dev", "template_id": null}'::jsonb || d.source_config,
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
    'created_at', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text
$$;

ALTER TABLE "deployments" ADD COLUMN "list_json" TEXT;

-- A PL/pgSQL function is VOLATILE unless declared otherwise, so each of its statements takes a
-- fresh snapshot, here after any wait for the row's lock: a write that waited for another
-- transaction on the same deployment builds the JSON from what that one committed (a snapshot
-- from before the wait would drop it; the test's "waited" case fails if this is made STABLE).
CREATE FUNCTION hangar_build_deployment_json() RETURNS trigger AS $$
BEGIN
  NEW.list_json := hangar_deployment_json(NEW);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER deployments_build_json BEFORE INSERT OR UPDATE ON "deployments"
  FOR EACH ROW EXECUTE FUNCTION hangar_build_deployment_json();

-- Rebuilds the JSON of the deployments a statement on a child table touched (the row's trigger
-- above builds it). Their rows are locked first in id order, so two statements touching several
-- deployments never wait on each other in a cycle, with the lock an UPDATE takes (it does not
-- conflict with the key-share locks that inserting children holds). A deployment deleted in the
-- same statement (a cascade) is simply not found.
CREATE FUNCTION hangar_rebuild_deployment_json(ids uuid[]) RETURNS void AS $$
BEGIN
  PERFORM 1 FROM deployments WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE deployments SET list_json = NULL WHERE id = ANY (ids);
END;
$$ LANGUAGE plpgsql;

-- One function for the three statement triggers of each child table; a branch's transition
-- table exists only for its event, and PL/pgSQL plans a statement only when it first runs.
CREATE FUNCTION hangar_children_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM hangar_rebuild_deployment_json(ARRAY(SELECT DISTINCT deployment_id FROM added));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM hangar_rebuild_deployment_json(ARRAY(SELECT DISTINCT deployment_id FROM removed));
  ELSE
    PERFORM hangar_rebuild_deployment_json(ARRAY(
      SELECT deployment_id FROM added UNION SELECT deployment_id FROM removed));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DO $$
DECLARE child text;
BEGIN
  FOREACH child IN ARRAY ARRAY['secrets', 'secret_references', 'deployment_tags'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS added
                    FOR EACH STATEMENT EXECUTE FUNCTION hangar_children_changed()',
                   child || '_json_added', child);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS removed
                    FOR EACH STATEMENT EXECUTE FUNCTION hangar_children_changed()',
                   child || '_json_removed', child);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I
                    REFERENCING NEW TABLE AS added OLD TABLE AS removed
                    FOR EACH STATEMENT EXECUTE FUNCTION hangar_children_changed()',
                   child || '_json_changed', child);
  END LOOP;
END;
$$;

UPDATE deployments SET list_json = NULL;
ALTER TABLE "deployments" ALTER COLUMN "list_json" SET NOT NULL;
