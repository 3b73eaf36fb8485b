-- Deploying from the command line: the packages a build reports, and a level per log line
-- (the deploy client filters and colours by it).

CREATE TYPE "RevisionLogLevel" AS ENUM ('DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL');

ALTER TABLE "deployments" ADD COLUMN "tracked_packages" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

ALTER TABLE "revision_logs" ADD COLUMN "level" "RevisionLogLevel" NOT NULL DEFAULT 'INFO';
