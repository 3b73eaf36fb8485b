-- One installation, many instances (issue 27): what every instance must share lives here once,
-- encrypted with the encryption key (AES-256-GCM, src/server/crypto.ts): the session secret,
-- the registry signing key and certificate, and a check value that proves an instance's
-- encryption key is the installation's. The first instance to start writes each row; the others
-- read it (INSERT ... ON CONFLICT DO NOTHING, then read back).
CREATE TABLE "installation_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installation_secrets_pkey" PRIMARY KEY ("name")
);
