// Runs once when the server starts: the request hook (client address, forwarded headers), the
// job queue's schema, the bootstrap of contract section 2, and (self-hosted) the offline-listener
// sweep.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/env");
  const { installRequestHook } = await import("@/server/request-hook");
  installRequestHook(env.HANGAR_TRUSTED_PROXY_HOPS);
  // `npm start` leaves SIGTERM to us (NEXT_MANUAL_SIG_HANDLE): a graceful stop (shutdown.ts).
  if (process.env.NEXT_MANUAL_SIG_HANDLE) {
    const { stopGracefullyOnSignals } = await import("@/server/shutdown");
    stopGracefullyOnSignals(env.HANGAR_SHUTDOWN_GRACE_SECONDS * 1000);
  }
  const { getDb } = await import("@/server/db");
  const { bootstrap } = await import("@/server/services/bootstrap");
  const { log, describeError } = await import("@/server/log");
  if (env.HANGAR_REGISTRY_URL) {
    try {
      // The registry token signer's key and certificate: generated on first start when not given.
      const { registrySigningKey } = await import("@/server/registry/signing-key");
      await registrySigningKey();
    } catch (error) {
      log.error("registry signing key unavailable", describeError(error));
    }
  }
  if (!env.DATABASE_URL) return;
  try {
    const { ensureQueues } = await import("@/server/services/revisions/queue");
    await ensureQueues(env.DATABASE_URL);
  } catch (error) {
    log.error("job queue setup failed", describeError(error));
  }
  if (env.HANGAR_MODE === "self_hosted") {
    // Listeners unseen for too long: their deployments' state is UNKNOWN, not a stale READY.
    const { markOfflineListenersDeployments } = await import("@/server/services/listeners/offline");
    const sweep = setInterval(
      () =>
        void markOfflineListenersDeployments(getDb()).catch((error) =>
          log.warn("offline listener sweep failed", describeError(error)),
        ),
      Math.max(500, (env.HANGAR_LISTENER_OFFLINE_SECONDS * 1000) / 4),
    );
    sweep.unref();
  }
  try {
    const result = await bootstrap(getDb(), {
      apiKey: env.HANGAR_BOOTSTRAP_API_KEY,
      adminEmail: env.HANGAR_ADMIN_EMAIL,
      adminPassword: env.HANGAR_ADMIN_PASSWORD,
    });
    if (result) {
      log.info("bootstrap ensured", {
        workspace_id: result.workspaceId,
        admin_email: env.HANGAR_ADMIN_EMAIL,
      });
      if (result.generatedPassword) {
        const { keepAdminPassword } = await import("@/server/db/local-secrets");
        const file = await keepAdminPassword(env.HANGAR_DATA_DIR, result.generatedPassword);
        // Printed this once (never logged as a field); the file keeps it for the operator.
        console.log(
          `\nHangar admin account created: ${env.HANGAR_ADMIN_EMAIL} / ${result.generatedPassword}\n` +
            `(also saved in ${file}, mode 0600; delete the file once you have stored it elsewhere)\n`,
        );
      }
    }
  } catch (error) {
    log.error("bootstrap failed", describeError(error));
  }
}
