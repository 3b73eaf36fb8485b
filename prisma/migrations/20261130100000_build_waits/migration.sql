-- Fair build queueing (issue 32): a build job waiting because its workspace already runs
-- HANGAR_BUILD_WORKSPACE_CONCURRENCY builds gets one line in its revision's build log per wait,
-- not one per poll. A row marks a wait already logged; the build fetch removes it once the job
-- is no longer waiting (src/server/jobs/build-fetch.ts).
CREATE TABLE "build_waits" (
    "job_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "build_waits_pkey" PRIMARY KEY ("job_id")
);
