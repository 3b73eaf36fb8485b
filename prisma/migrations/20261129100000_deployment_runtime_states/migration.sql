-- Live health of what runs (issue 25): what the cluster last showed of each deployment's active
-- revision. Every write is a change, and tells the dashboard (the same notification as a
-- deployment change: hangar_notify_deployment_change finds the workspace by deployment_id).
CREATE TABLE "deployment_runtime_states" (
    "deployment_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "healthy" BOOLEAN NOT NULL,
    "reason" TEXT,
    "observation" JSONB NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_runtime_states_pkey" PRIMARY KEY ("deployment_id")
);

ALTER TABLE "deployment_runtime_states" ADD CONSTRAINT "deployment_runtime_states_deployment_id_fkey"
  FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TRIGGER deployment_runtime_states_notify_change
  AFTER INSERT OR UPDATE ON "deployment_runtime_states"
  FOR EACH ROW EXECUTE FUNCTION hangar_notify_deployment_change();
