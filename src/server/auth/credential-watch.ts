import { getDb, type DbClient } from "@/server/db";
import { AppError, forbidden } from "@/server/errors";
import { describeError, log } from "@/server/log";
import { MISSING_CREDENTIALS, ONE_TIME_PASSWORD } from "./actor";
import { actorFromApiKey, hashApiKey } from "./api-keys";
import { INVALID_LISTENER_TOKEN } from "./listener-tokens";

/*
 * Long-lived answers (event streams, long polls) end when the credential that opened them does:
 * a revoked or deleted API key, a signed-out or revoked session, a member removed from the
 * workspace, a deleted listener. Every CHECK_MS the credentials of the open answers are resolved
 * again, each once however many answers it holds: API keys through the key cache (a query per
 * key at most every 5 s; NOTIFY drops a changed key at once), all sessions in one query, all
 * listeners in one query. So a check costs at most two queries plus the keys' cache misses per
 * process, however many streams are open.
 */

/** Within the key cache's bound (contract section 2: 5 s) with room for the check itself. */
export const CREDENTIAL_CHECK_MS = 2_000;

export type Credential =
  | { kind: "api_key"; key: string; tenantId: string | null }
  | { kind: "session"; sessionId: string; userId: string; workspaceId: string }
  | { kind: "listener"; listenerId: string; tokenHash: string };

interface Watched {
  credential: Credential;
  holders: Set<AbortController>;
}

const watched = new Map<string, Watched>();
let timer: NodeJS.Timeout | null = null;

function idOf(credential: Credential): string {
  switch (credential.kind) {
    case "api_key":
      return `key:${hashApiKey(credential.key)}:${credential.tenantId ?? ""}`;
    case "session":
      return `session:${credential.sessionId}:${credential.userId}:${credential.workspaceId}`;
    case "listener":
      return `listener:${credential.listenerId}:${credential.tokenHash}`;
  }
}

export interface CredentialWatch {
  /** Aborts when the client goes away or the credential ends (then `ended` says how). */
  readonly signal: AbortSignal;
  /** The error a new request with the credential gets now, once it has ended; else null. */
  readonly ended: AppError | null;
  /** The answer is over: stop checking for it. */
  stop(): void;
}

export function watchCredential(credential: Credential, client: AbortSignal): CredentialWatch {
  const controller = new AbortController();
  const id = idOf(credential);
  const entry = watched.get(id) ?? { credential, holders: new Set() };
  entry.holders.add(controller);
  watched.set(id, entry);
  const clientGone = () => controller.abort(client.reason);
  const stop = () => {
    client.removeEventListener("abort", clientGone);
    entry.holders.delete(controller);
    if (!entry.holders.size && watched.get(id) === entry) watched.delete(id);
  };
  client.addEventListener("abort", clientGone, { once: true });
  controller.signal.addEventListener("abort", stop, { once: true });
  if (client.aborted) clientGone();
  scheduleCheck();
  return {
    signal: controller.signal,
    get ended() {
      const reason: unknown = controller.signal.reason;
      return reason instanceof AppError ? reason : null;
    },
    stop,
  };
}

/** One check at a time, and none while nothing is watched. */
function scheduleCheck() {
  if (timer || !watched.size) return;
  timer = setTimeout(() => {
    void checkAll(getDb()).finally(() => {
      timer = null;
      scheduleCheck();
    });
  }, CREDENTIAL_CHECK_MS);
  timer.unref();
}

async function checkAll(db: DbClient): Promise<void> {
  const entries = [...watched.values()];
  const of = <K extends Credential["kind"]>(kind: K) =>
    entries.filter(
      (e): e is Watched & { credential: Extract<Credential, { kind: K }> } =>
        e.credential.kind === kind,
    );
  const checks = [
    ...of("api_key").map((e) => checkApiKey(db, e)),
    checkSessions(db, of("session")),
    checkListeners(db, of("listener")),
  ];
  for (const outcome of await Promise.allSettled(checks)) {
    // A failed check (database away) ends nothing; the next one tries again.
    if (outcome.status === "rejected")
      log.warn("credential check failed", describeError(outcome.reason));
    else for (const [entry, error] of outcome.value) for (const h of entry.holders) h.abort(error);
  }
}

type Endings = [Watched, AppError][];

/** The same resolution as every request (api-keys.ts), through the key cache. */
async function checkApiKey(
  db: DbClient,
  entry: Watched & { credential: { kind: "api_key" } },
): Promise<Endings> {
  try {
    await actorFromApiKey(db, entry.credential.key, entry.credential.tenantId);
    return [];
  } catch (error) {
    if (error instanceof AppError) return [[entry, error]];
    throw error;
  }
}

/** As session-store.ts and session-actor.ts decide for a request: a live row, a membership. */
async function checkSessions(
  db: DbClient,
  entries: (Watched & { credential: { kind: "session" } })[],
): Promise<Endings> {
  if (!entries.length) return [];
  const rows = await db.session.findMany({
    where: { id: { in: entries.map((e) => e.credential.sessionId) }, revokedAt: null },
    select: {
      id: true,
      userId: true,
      user: {
        select: {
          mustChangePassword: true,
          memberships: {
            where: { workspaceId: { in: entries.map((e) => e.credential.workspaceId) } },
            select: { workspaceId: true },
          },
        },
      },
    },
  });
  const live = new Map(rows.map((row) => [row.id, row]));
  return entries.flatMap((entry): Endings => {
    const { credential } = entry;
    const row = live.get(credential.sessionId);
    if (
      row?.userId !== credential.userId ||
      !row.user.memberships.some((m) => m.workspaceId === credential.workspaceId)
    )
      return [[entry, new AppError("unauthorized", MISSING_CREDENTIALS)]];
    return row.user.mustChangePassword ? [[entry, forbidden(ONE_TIME_PASSWORD)]] : [];
  });
}

/** Deleting a listener revokes its token (listener-tokens.ts). */
async function checkListeners(
  db: DbClient,
  entries: (Watched & { credential: { kind: "listener" } })[],
): Promise<Endings> {
  if (!entries.length) return [];
  const rows = await db.listener.findMany({
    where: { id: { in: entries.map((e) => e.credential.listenerId) } },
    select: { id: true, tokenHash: true },
  });
  const tokens = new Map(rows.map((row) => [row.id, row.tokenHash]));
  return entries
    .filter((e) => tokens.get(e.credential.listenerId) !== e.credential.tokenHash)
    .map((e) => [e, new AppError("unauthorized", INVALID_LISTENER_TOKEN)]);
}
