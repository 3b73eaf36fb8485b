-- Accounts an admin created with a one-time password must choose a new one at first sign-in.
ALTER TABLE "users" ADD COLUMN "must_change_password" BOOLEAN NOT NULL DEFAULT false;
