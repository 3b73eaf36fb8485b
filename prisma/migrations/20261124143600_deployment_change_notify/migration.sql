-- The dashboard follows deployments live (src/server/services/deployments/events.ts): any change
-- to a deployment or to a revision's status, from the API, the worker or any tool, tells every
-- server process which workspace and deployment changed. Identical payloads in one transaction
-- are delivered once.
CREATE FUNCTION hangar_notify_deployment_change() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'deployments' THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM pg_notify('hangar_deployment_changed',
        json_build_object('w', OLD.workspace_id, 'd', OLD.id)::text);
    ELSE
      PERFORM pg_notify('hangar_deployment_changed',
        json_build_object('w', NEW.workspace_id, 'd', NEW.id)::text);
    END IF;
  ELSE
    PERFORM pg_notify('hangar_deployment_changed',
      json_build_object('w', d.workspace_id, 'd', d.id)::text)
    FROM deployments d WHERE d.id = NEW.deployment_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER deployments_notify_change
  AFTER INSERT OR UPDATE OR DELETE ON "deployments"
  FOR EACH ROW EXECUTE FUNCTION hangar_notify_deployment_change();

CREATE TRIGGER revisions_notify_change
  AFTER INSERT OR UPDATE OF status, status_message ON "revisions"
  FOR EACH ROW EXECUTE FUNCTION hangar_notify_deployment_change();
