-- Code-host integrations managed in the dashboard (issue 17): the last connection check.
ALTER TABLE "codehost_integrations" ADD COLUMN "last_checked_at" TIMESTAMPTZ(3);
ALTER TABLE "codehost_integrations" ADD COLUMN "last_check_error" TEXT;
