-- Worker liveness (issue 27): each worker process registers here and holds a session-level
-- advisory lock keyed by its lock_key on a connection of its own for as long as it lives; the
-- server releases the lock the moment that session ends (the process killed). worker_jobs
-- records which queue job each worker is running, so another worker's lifeline hands the jobs
-- of a worker whose lock is gone back to the queue at once instead of at their expiry.
CREATE TABLE "workers" (
    "id" UUID NOT NULL,
    "lock_key" SERIAL NOT NULL,
    "pid" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "last_seen" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "workers_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "workers_lock_key_key" ON "workers"("lock_key");

CREATE TABLE "worker_jobs" (
    "job_id" UUID NOT NULL,
    "queue" TEXT NOT NULL,
    "worker_id" UUID NOT NULL,
    -- Microseconds, as pg-boss's started_on: a record counts for the run that started before it.
    "started_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    CONSTRAINT "worker_jobs_pkey" PRIMARY KEY ("job_id")
);

CREATE INDEX "worker_jobs_worker_id_idx" ON "worker_jobs"("worker_id");

ALTER TABLE "worker_jobs" ADD CONSTRAINT "worker_jobs_worker_id_fkey" FOREIGN KEY ("worker_id") REFERENCES "workers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
