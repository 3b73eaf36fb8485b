-- Server processes cache verified API keys (src/server/auth/api-key-cache.ts). Any change to a
-- key other than its last-use time (revocation, role, deletion), from any process or tool,
-- tells them to drop it at once.
CREATE FUNCTION hangar_notify_api_key_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE'
     OR (to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at') THEN
    PERFORM pg_notify('hangar_api_key_changed', OLD.key_hash);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER api_keys_notify_change
  AFTER UPDATE OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION hangar_notify_api_key_change();
