-- Server processes cache deployments' ingest keys (src/server/auth/ingest-keys.ts), as they do
-- API keys. Any change to a key (revocation on rotation or deletion, the row deleted) tells them
-- to drop it at once; a renamed project (the key's scope names it) drops them all.
CREATE FUNCTION hangar_notify_ingest_key_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hangar_ingest_key_changed', OLD.key_hash);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER tracing_ingest_keys_notify_change
  AFTER UPDATE OR DELETE ON "tracing_ingest_keys"
  FOR EACH ROW EXECUTE FUNCTION hangar_notify_ingest_key_change();

CREATE FUNCTION hangar_notify_tracing_project_renamed() RETURNS trigger AS $$
BEGIN
  IF OLD.name IS DISTINCT FROM NEW.name THEN
    PERFORM pg_notify('hangar_ingest_key_changed', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER tracing_projects_notify_rename
  AFTER UPDATE OF "name" ON "tracing_projects"
  FOR EACH ROW EXECUTE FUNCTION hangar_notify_tracing_project_renamed();
